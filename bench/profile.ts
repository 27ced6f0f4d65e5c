import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { load, population, startServer, type Client, type LoadOptions } from './lib.js';

/**
 * Where the server's time goes for one request shape under the clients' load: the service in
 * this process, the load (25 users × 20 tokens) from its own process, the V8 CPU profiler on only
 * for the load. Prints the functions with the most self time and writes the .cpuprofile for
 * Chrome DevTools. Usage: npx tsx bench/profile.ts me|task|304|post|mcp [sqlite|postgres]
 */
const shape = process.argv[2] ?? 'task';
const kind = (process.argv[3] ?? 'sqlite') as 'sqlite' | 'postgres';
const server = await startServer(kind);
const clients = await population(server);
const bearer = (c: Client) => ({ authorization: `Bearer ${c.token}` });

async function options(): Promise<LoadOptions> {
  switch (shape) {
    case 'me': return { url: server.url, requests: clients.map((c) => ({ path: '/api/v1/auth/me', headers: bearer(c) })) };
    case 'task': return { url: server.url, requests: clients.map((c) => ({ path: `/api/v1/tasks/${c.taskId}`, headers: bearer(c) })) };
    case '304': {
      const requests = [];
      for (const c of clients) {
        const etag = (await fetch(`${server.url}/api/v1/tasks/${c.taskId}`, { headers: bearer(c) })).headers.get('etag')!;
        requests.push({ path: `/api/v1/tasks/${c.taskId}`, headers: { ...bearer(c), 'if-none-match': etag } });
      }
      return { url: server.url, expectStatus: 304, requests };
    }
    case 'post': return {
      url: server.url, method: 'POST', expectStatus: 201,
      requests: clients.map((c) => ({ path: '/api/v1/tasks', headers: { ...bearer(c), 'content-type': 'application/json' }, body: JSON.stringify({ tree_id: c.treeId, title: 'Water the roses', notes: 'twice a week' }) })),
    };
    case 'mcp': {
      const requests = [];
      for (const c of clients) {
        const headers = { ...bearer(c), accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
        const init = await fetch(`${server.url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'profile', version: '1' } } }) });
        await init.arrayBuffer();
        requests.push({ headers: { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { id: c.taskId } } }) });
      }
      return { url: `${server.url}/mcp`, method: 'POST', requests };
    }
    default: throw new Error(`unknown shape ${shape}`);
  }
}

const plan = await options();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const result = await load(shape, plan);
const { profile } = await session.post('Profiler.stop');
const file = `profile-${shape}-${kind}.cpuprofile`;
writeFileSync(file, JSON.stringify(profile));
console.log(`${shape} (${kind}): ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, errors ${result.errors}; profile in ${file}`);

const self = new Map<string, number>();
const dt = profile.timeDeltas ?? [];
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const samples = profile.samples ?? [];
let total = 0;
samples.forEach((id, i) => {
  const node = byId.get(id)!;
  const f = node.callFrame;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(src|bench)\//, '$1/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
  total += dt[i] ?? 0;
});
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${key}`);
await server.close();
process.exit(0);
