import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Runs every suite in bench/suites in name order, or the ones named on the command line
 * (`npm run bench -- data`). Each suite measures its baseline in the same run.
 */
const here = dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const suites = readdirSync(join(here, 'suites'))
  .filter((f) => f.endsWith('.ts'))
  .sort()
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)));

console.log(
  `# Task Tree benchmarks (${new Date().toISOString()}, Node ${process.version}, ${process.env.BENCH_SECONDS ?? 5} s per load)`,
);
for (const file of suites) {
  const suite = (await import(join(here, 'suites', file))) as { run: () => Promise<void> };
  await suite.run();
}
process.exit(0);
