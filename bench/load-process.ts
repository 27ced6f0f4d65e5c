import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

/**
 * The load generator in a process of its own, as an outside client is: the bench process spawns
 * it with a JSON file of options (argument 1) and reads one JSON line of results from stdout.
 * `requests` rotate per connection (each connection walks the list and starts again), which is
 * how many tokens of many users share one load without a per-request callback.
 */
export interface LoadPlan {
  url: string;
  method: 'GET' | 'POST' | 'PATCH';
  requests: { path?: string; headers?: Record<string, string>; body?: string }[];
  seconds: number;
  connections: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  statuses: Record<string, number>;
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadPlan;
const result = await autocannon({
  url: plan.url,
  method: plan.method,
  connections: plan.connections,
  duration: plan.seconds,
  requests: plan.requests.map((r) => ({ method: plan.method, ...r })),
});
const statuses: Record<string, number> = {};
for (const [code, stat] of Object.entries(result.statusCodeStats ?? {}))
  statuses[code] = (stat as { count: number }).count;
const answer: LoadResult = {
  requestsPerSecond: result.requests.average,
  p50: result.latency.p50,
  p99: result.latency.p99,
  errors: result.errors + result.timeouts,
  statuses,
};
process.stdout.write(`${JSON.stringify(answer)}\n`);
