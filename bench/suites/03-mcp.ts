import { McpServer } from '@modelcontextprotocol/server';
import {
  alternate,
  benchDatabases,
  load,
  makeAgent,
  population,
  printHeader,
  report,
  startBaseline,
  startServer,
  time,
  type BenchServer,
  type LoadOptions,
} from '../lib.js';
import { createTree } from '../../src/domain/trees/trees.js';
import { createTask } from '../../src/domain/trees/tasks.js';
import { serveLegacy } from '../../src/http/mcp/sdk-transport.js';
import { getTask } from '../../src/domain/trees/tasks.js';
import { cases as clientCases } from './01-clients.js';

/**
 * The agent call journal's cost: the same REST read of 25 users through 500 tokens with
 * JOURNAL=off and on; a journal flush; the MCP SDK's own ceiling next to that read; and what
 * the MCP fast path saves: the get_task calls of 01-clients with MCP_FAST_PATH=off and on.
 */
export async function run(): Promise<void> {
  for (const kind of benchDatabases()) {
    printHeader(`MCP and the agent call journal (${kind})`);
    const quiet = await startServer(kind, { JOURNAL: 'off' });
    const server = await startServer(kind);
    try {
      const [off, rest] = await alternate(
        ['GET /api/v1/tasks/{id}, 500 tokens, JOURNAL=off (baseline)', await restRead(quiet)],
        ['GET /api/v1/tasks/{id}, 500 tokens, journal on', await restRead(server)],
        1,
      );
      report(off);
      report(rest, off, 'target ≥ 0.90× (≤ 10 % slower)');
      report(await sdkFloor(server), rest, 'the SDK alone: the most any MCP call can reach (MCP itself: 01-clients)');
      report(await journalFlush(server), undefined, 'per flush; every call written, none capped');
    } finally {
      await quiet.close();
      await server.close();
    }
    await fastPath(kind);
  }
}

/**
 * The MCP fast path (src/http/mcp/fast-path.ts) against the SDK's transport serving the same
 * calls: the two MCP cases of 01-clients (tools/call get_task in a 2025-11-25 session and as a
 * sessionless 2026-07-28 request, 500 tokens under the real limit), on two services as `npm
 * start` runs them, one with MCP_FAST_PATH=off, loaded in turn three times each (a population
 * per service and case, so no token runs into its limit).
 */
async function fastPath(kind: 'sqlite' | 'postgres'): Promise<void> {
  const withPath = await startServer(kind);
  const without = await startServer(kind, { MCP_FAST_PATH: 'off' });
  try {
    // 01-clients loads its populations[4] with the 2025 case and populations[5] with the 2026 one.
    const seeded = async (server: BenchServer) => {
      const [session, sessionless] = [await population(server), await population(server)];
      return [session, session, session, session, session, sessionless];
    };
    const populations = [await seeded(withPath), await seeded(without)] as const;
    await withPath.asProcess();
    await without.asProcess();
    const mcp = async (server: BenchServer, clients: Awaited<ReturnType<typeof seeded>>) =>
      (await clientCases(server, clients)).filter(([name]) => name.startsWith('POST /mcp tools/call get_task'));
    const [on, off] = [await mcp(withPath, populations[0]), await mcp(without, populations[1])];
    for (const [i, [name, options]] of on.entries()) {
      const [slow, fast] = await alternate([`${name}, MCP_FAST_PATH=off`, off[i]![1]], [`${name}, fast path`, options]);
      report(slow);
      report(fast, slow, "the fast path against the SDK's transport, same run");
    }
  } finally {
    await withPath.close();
    await without.close();
  }
}

/** Reads of 25 users' tasks through their 20 tokens each, as in 01-clients. */
async function restRead(server: BenchServer): Promise<LoadOptions> {
  const clients = await population(server);
  return {
    url: server.url,
    requests: clients.map((c) => ({
      path: `/api/v1/tasks/${c.taskId}`,
      headers: { authorization: `Bearer ${c.token}` },
    })),
  };
}

/**
 * The ceiling of an MCP call as the SDK serves it: bare Fastify, and per request a fresh
 * McpServer whose tools/call answers a constant through the SDK's transport as the service uses it, with
 * no authentication, session, database, journal or rate limit.
 */
async function sdkFloor(server: BenchServer) {
  const { actor } = await makeAgent(server, 'sprout');
  const tree = await createTree(server.app.deps, actor, { name: 'Floor' });
  const task = await getTask(
    server.app.deps,
    actor,
    (await createTask(server.app.deps, actor, { tree_id: tree.id, title: 'Water the roses', notes: 'twice a week' }))
      .id,
  );
  const floor = await startBaseline((app) =>
    app.post('/', async (request, reply) => {
      const server = new McpServer({ name: 'floor', version: '1' }, { capabilities: { tools: {} } });
      // The service's tools are served through the SDK's low-level handlers; so is the floor's.
      server.server.setRequestHandler('tools/call', () => ({
        structuredContent: { task },
        content: [{ type: 'text', text: JSON.stringify({ task }) }],
      }));
      const web = new Request('http://floor/mcp', {
        method: 'POST',
        headers: {
          accept: request.headers.accept ?? '',
          'content-type': 'application/json',
          'mcp-protocol-version': '2025-11-25',
        },
      });
      const answer = await serveLegacy(server, web, request.body, { token: '', clientId: '', scopes: [] });
      return reply.code(answer.status).send(answer.body);
    }),
  );
  try {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_task', arguments: { id: task.id } },
    });
    return await load('floor: bare Fastify + the MCP SDK answering a constant tool per request', {
      url: `${floor.url}/`,
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      body,
    });
  } finally {
    await floor.close();
  }
}

/** The journal's write side without the per-owner cap helping: 10 owners × 1,000 calls per flush. */
async function journalFlush(server: BenchServer) {
  const owners = await Promise.all(
    Array.from({ length: 10 }, async () => (await makeAgent(server, 'sprout')).actor.user.id),
  );
  const journal = server.app.deps.journal;
  return time('journal: record + flush of 10,000 calls of 10 owners (in process)', 10, async () => {
    for (let i = 0; i < 10_000; i++) {
      journal.record(owners[i % 10]!, {
        surface: 'rest',
        operation: 'GET /tasks/{id}',
        status: 200,
        duration_ms: 1,
        token_id: 'tok_bench',
        client: 'bench',
      });
    }
    await journal.flush();
  });
}
