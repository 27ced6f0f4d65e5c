import { McpServer } from '@modelcontextprotocol/server';
import { alternate, benchDatabases, load, makeAgent, printHeader, report, startBaseline, startServer, time, type BenchServer, type LoadOptions } from '../lib.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { connectServer, serveExchange } from '../../src/http/mcp/exchange.js';
import { getTask } from '../../src/domain/trees/tasks.js';

/**
 * MCP next to REST on the same read: `tools/call get_task` in an open session against
 * `GET /tasks/{id}`, and the journal's cost: the same REST read with JOURNAL=off and on.
 */
export async function run(): Promise<void> {
  for (const kind of benchDatabases()) {
    printHeader(`MCP and the agent call journal (${kind})`);
    const quiet = await startServer(kind, { JOURNAL: 'off' });
    const server = await startServer(kind);
    try {
      const [off, rest] = await alternate(
        ['GET /api/v1/tasks/{id}, Bearer, JOURNAL=off (baseline)', await restRead(quiet)],
        ['GET /api/v1/tasks/{id}, Bearer, journal on', await restRead(server)],
      );
      report(off);
      report(rest, off, 'target ≥ 0.90× (≤ 10 % slower)');
      report(await mcpGetTask(server), rest, 'target ≥ 0.6× of REST');
      report(await sdkFloor(server), rest, 'the SDK alone: the most any MCP call can reach');
      report(await journalFlush(server), undefined, 'per flush; every call written, none capped');
    } finally {
      await quiet.close();
      await server.close();
    }
  }
}

async function someTask(server: BenchServer) {
  const { actor, token } = await makeAgent(server, 'sprout');
  const tree = await createTree(server.app.deps, actor, { name: 'Bench' });
  const task = await createTask(server.app.deps, actor, { tree_id: tree.id, title: 'Water the roses', notes: 'twice a week' });
  return { token, taskId: task.id };
}

async function restRead(server: BenchServer): Promise<LoadOptions> {
  const { token, taskId } = await someTask(server);
  return { url: `${server.url}/api/v1/tasks/${taskId}`, headers: { authorization: `Bearer ${token}` } };
}

async function mcpGetTask(server: BenchServer) {
  const { token, taskId } = await someTask(server);
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
  const init = await fetch(`${server.url}/mcp`, {
    method: 'POST', headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } }),
  });
  if (init.status !== 200) throw new Error(`initialize answered ${init.status}`);
  const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { id: taskId } } });
  const check = await fetch(`${server.url}/mcp`, { method: 'POST', headers: { ...headers, ...session }, body });
  const answer = (await check.json()) as { result?: { isError?: boolean } };
  if (check.status !== 200 || answer.result === undefined || answer.result.isError) throw new Error(`tools/call answered ${check.status}`);
  return load('POST /mcp tools/call get_task (session, JSON answer)', { url: `${server.url}/mcp`, method: 'POST', headers: { ...headers, ...session }, body });
}

/**
 * The ceiling of an MCP call as the SDK serves it: bare Fastify, and per request a fresh
 * McpServer whose tools/call answers a constant through the same one-exchange transport, with
 * no authentication, session, database, journal or rate limit.
 */
async function sdkFloor(server: BenchServer) {
  const { actor } = await makeAgent(server, 'sprout');
  const tree = await createTree(server.app.deps, actor, { name: 'Floor' });
  const task = await getTask(server.app.deps, actor, (await createTask(server.app.deps, actor, { tree_id: tree.id, title: 'Water the roses', notes: 'twice a week' })).id);
  const floor = await startBaseline((app) => app.post('/', async (request, reply) => {
    const server = new McpServer({ name: 'floor', version: '1' }, { capabilities: { tools: {} } });
    // The service's tools are served through the SDK's low-level handlers; so is the floor's.
    server.server.setRequestHandler('tools/call', () => ({ structuredContent: { task }, content: [{ type: 'text', text: JSON.stringify({ task }) }] }));
    const answer = await serveExchange(connectServer(server), request.body, { accept: request.headers.accept, protocolVersion: '2025-11-25' }, { token: '', clientId: '', scopes: [] });
    return reply.code(answer.status).send(answer.body);
  }));
  try {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { id: task.id } } });
    return await load('floor: bare Fastify + the MCP SDK answering a constant tool per request', { url: `${floor.url}/`, method: 'POST', headers: { accept: 'application/json, text/event-stream' }, body });
  } finally {
    await floor.close();
  }
}

/** The journal's write side without the per-owner cap helping: 10 owners × 1,000 calls per flush. */
async function journalFlush(server: BenchServer) {
  const owners = await Promise.all(Array.from({ length: 10 }, async () => (await makeAgent(server, 'sprout')).actor.user.id));
  const journal = server.app.deps.journal;
  return time('journal: record + flush of 10,000 calls of 10 owners (in process)', 10, async () => {
    for (let i = 0; i < 10_000; i++) {
      journal.record(owners[i % 10]!, { surface: 'rest', operation: 'GET /tasks/{id}', status: 200, duration_ms: 1, token_id: 'tok_bench', client: 'bench' });
    }
    await journal.flush();
  });
}
