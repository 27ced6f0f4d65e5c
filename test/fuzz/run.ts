/**
 * `npm run fuzz` (or `npx tsx test/fuzz/run.ts [--sample N] [--all]`): starts the real app on
 * SQLite, and on PostgreSQL too when DATABASE_URL or TEST_DATABASE_URL is set, sends every fuzz
 * case (see session.ts) and counts 5xx answers, answers outside CONTRACT §1 and requests that
 * got no answer. Exits 1 when any is found. `--all` lists every finding, not the first 40.
 */
import { makeTestEnv, startApp, type DatabaseKind } from '../helpers/app.js';
import { runCases, type Finding } from './check.js';
import { buildFuzz, sampleCases } from './session.js';

if (process.env.DATABASE_URL) process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL;
const args = process.argv.slice(2);
const sampleAt = args.indexOf('--sample');
const perOperation = sampleAt >= 0 ? Number(args[sampleAt + 1]) : null;
const listAll = args.includes('--all');
/** The report goes to stdout (lint keeps console.log out of the sources). */
const say = (line: string) => process.stdout.write(`${line}\n`);
const kinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** NUL bytes and integer ranges are issue 13 point 4, fixed on their own; counted apart. */
const pointFour = (f: Finding) => f.category === 'nul' || f.category === 'int-range';

function summarize(kind: string, requests: number, operations: number, findings: Finding[]): void {
  const count = (problem: string, which: (f: Finding) => boolean) =>
    findings.filter((f) => f.problem === problem && which(f)).length;
  say(`\n## ${kind}: ${requests} requests over ${operations} operations`);
  for (const problem of ['5xx', 'off-contract', 'no-answer']) {
    say(
      `${problem.padEnd(13)} ${String(count(problem, () => true)).padStart(5)}  (NUL/int: ${count(problem, pointFour)}, other: ${count(problem, (f) => !pointFour(f))})`,
    );
  }
  const groups = new Map<string, Finding[]>();
  for (const f of findings) {
    const key = `${f.problem} ${f.status ?? '-'} ${f.operation} [${f.category}]`;
    groups.set(key, [...(groups.get(key) ?? []), f]);
  }
  const lines = [...groups.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (const [key, list] of listAll ? lines : lines.slice(0, 40)) {
    say(
      `- ${key} x${list.length}: ${list
        .slice(0, 3)
        .map((f) => f.label)
        .join('; ')} -> ${list[0]!.excerpt.slice(0, 160)}`,
    );
  }
  if (!listAll && lines.length > 40) say(`  … ${lines.length - 40} more groups (--all lists them)`);
}

let failed = false;
for (const kind of kinds) {
  const env = makeTestEnv(kind, { RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' });
  const running = await startApp(env);
  try {
    const { cases, operations } = await buildFuzz(running.url, running.app);
    const chosen = perOperation === null ? cases : sampleCases(cases, perOperation);
    const report = await runCases(running.url, chosen);
    summarize(kind, report.requests, operations, report.findings);
    failed ||= report.findings.length > 0;
  } finally {
    await running.close();
    await env.dispose();
  }
}
process.exit(failed ? 1 : 0);
