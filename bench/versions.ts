import { alternate, load, report, printHeader, startServer } from './lib.js';
import { casePopulations, cases } from './suites/01-clients.js';

/**
 * Two versions of the service under one case of 01-clients, loaded in turn on the same data:
 * this checkout's `dist/main.js` and another build's (an earlier commit's, e.g. from
 * `git archive <commit> | tar -x -C /tmp/before` with node_modules linked and `npm run build`
 * run there). Both run as `npm start` runs them, in processes of their own; each version's
 * median of BENCH_ROUNDS loads (default 3) is printed with the ratio of this one to the other.
 * The other build must know every migration of this one (a build older than a migration refuses
 * the data and the run stops saying so): across a migration, run `npm run bench` in each checkout
 * in turn instead.
 *
 *   BENCH_BEFORE=/tmp/before/dist/main.js npx tsx bench/versions.ts 'GET /api/v1/search' [sqlite|postgres]
 *
 * The case is picked by a part of its name, as BENCH_CASE picks it.
 */
const wanted = process.argv[2] ?? 'GET /api/v1/search';
const kind = (process.argv[3] ?? 'sqlite') as 'sqlite' | 'postgres';
const before = process.env.BENCH_BEFORE;
if (before === undefined) throw new Error('BENCH_BEFORE names the other build’s dist/main.js');
const server = await startServer(kind);
try {
  const populations = await casePopulations(server, wanted);
  await server.asProcess();
  const other = await server.alsoProcess(before);
  const chosen = (await cases(server, populations)).find(([name]) => name.includes(wanted));
  if (chosen === undefined) throw new Error(`no case holds ${wanted}`);
  const [name, options, target] = chosen;
  const earlier = { ...options, url: options.url.replace(server.url, other.url) };
  printHeader(`${name}: this checkout against ${before} (${kind})`);
  await load('warm-up', { ...options, seconds: 1 });
  await load('warm-up', { ...earlier, seconds: 1 });
  const [base, now] = await alternate(
    [`${name}, before`, earlier],
    [`${name}, this checkout`, options],
    Number(process.env.BENCH_ROUNDS ?? 3),
  );
  report(base);
  report(now, base, target);
} finally {
  await server.close();
}
process.exit(0);
