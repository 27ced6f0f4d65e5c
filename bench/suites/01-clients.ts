import {
  benchDatabases,
  bracketed,
  NEW_TASK,
  population,
  printHeader,
  report,
  startBaseline,
  startNodeBaseline,
  startServer,
  type BenchServer,
  type Client,
  type LoadOptions,
  type Measurement,
} from '../lib.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const MODERN = '2026-07-28';

/**
 * The service loaded the way its clients load it (issue 18): 25 users with 20 personal tokens
 * each, every request on the next token under the real limit of 600 a minute, the load generator
 * in a process of its own, and a bare node:http server loaded just before and after every case.
 */
export async function run(): Promise<void> {
  const baseline = await startNodeBaseline();
  try {
    // The framework's own ceiling on this machine: Fastify answering a small JSON, nothing of ours.
    printHeader('The framework alone');
    const fastify = await startBaseline();
    const [bare, base] = await bracketed(baseline.url, 'bare Fastify, small JSON, no logger', {
      url: `${fastify.url}/`,
    });
    await fastify.close();
    report(base);
    report(bare, base, 'the most any route reaches');
    for (const kind of benchDatabases()) {
      printHeader(`As clients load it: 25 users × 20 tokens, real rate limit (${kind})`);
      const server = await startServer(kind);
      try {
        // A population of its own for every case: at these rates one case spends about half of
        // each token's 600 a minute, so cases sharing tokens would run into each other's 429s.
        // BENCH_CASE=auth/me measures only the cases whose name holds that text (`a|b`: either).
        const only = process.env.BENCH_CASE?.split('|');
        const chosen = (name: string) => only === undefined || only.some((part) => name.includes(part));
        const populations: Client[][] = [];
        for (let i = 0; i < CASE_COUNT; i++)
          // A batch case creates 50 tasks a request: Grove's tasks per tree leave it room for minutes.
          populations.push(
            chosen(CASE_NAMES[i]!) ? await population(server, 25, 20, i >= BATCH_CASES ? 'grove' : 'sprout') : [],
          );
        await server.asProcess();
        let rest: [measured: Measurement, base: Measurement] | null = null;
        let create: Measurement | null = null;
        for (const [name, options, target] of (await cases(server, populations)).filter(([n]) => chosen(n))) {
          const [measured, base] = await bracketed(baseline.url, name, options);
          if (name === 'GET /api/v1/tasks/{id}') rest = [measured, base];
          if (name === CASE_NAMES[3]) create = measured;
          const ofRest =
            name.startsWith('POST /mcp tools/call get_task') && rest !== null
              ? `; ${shareOfRest([measured, base], rest)}`
              : '';
          const ofCreate = name.includes('of 50') ? `; ${tasksPerSecond(measured, create)}` : '';
          report(base);
          report(measured, base, target + ofRest + ofCreate);
        }
      } finally {
        await server.close();
      }
    }
  } finally {
    await baseline.close();
  }
}

export type Case = [name: string, options: LoadOptions, target: string];

/**
 * An MCP figure as a share of the REST read, as measured and against each one's own baseline:
 * the two cases run minutes apart, and when the VM slows in between, the first share falls
 * though neither case changed against the machine it ran on.
 */
function shareOfRest([mcp, mcpBase]: [Measurement, Measurement], [rest, restBase]: [Measurement, Measurement]): string {
  const measured = mcp.requestsPerSecond / rest.requestsPerSecond;
  const againstBaselines =
    mcp.requestsPerSecond / mcpBase.requestsPerSecond / (rest.requestsPerSecond / restBase.requestsPerSecond);
  return `${measured.toFixed(2)} of REST (${againstBaselines.toFixed(2)} against the baselines)`;
}

/** Tasks a second of a batch case, against the single creates of POST /api/v1/tasks when they ran too. */
function tasksPerSecond(batch: Measurement, single: Measurement | null): string {
  const tasks = batch.requestsPerSecond * BATCH_SIZE;
  const ratio = single === null ? '' : ` = ${(tasks / single.requestsPerSecond).toFixed(1)}× the single creates`;
  return `${tasks.toFixed(0)} tasks/s${ratio}`;
}

/** The cases in order; bench/profile.ts names them too. */
export const CASE_NAMES = [
  'GET /api/v1/auth/me',
  'GET /api/v1/tasks/{id}',
  'GET /api/v1/tasks/{id}, If-None-Match → 304',
  'POST /api/v1/tasks (history, search index, journal)',
  'POST /mcp tools/call get_task, 2025-11-25 session',
  'POST /mcp tools/call get_task, 2026-07-28 (no session)',
  'POST /api/v1/tasks/batch, create of 50',
  'POST /mcp tools/call create_tasks of 50, 2025-11-25 session',
] as const;
const CASE_COUNT = CASE_NAMES.length;
/** The batch cases come last, from this one. */
const BATCH_CASES = 6;
const BATCH_SIZE = 50;

/**
 * Every case of this suite against a running service, in order; bench/profile.ts picks one of
 * them. Case i loads the clients of `populations[i]` (the last one when there are fewer).
 */
export async function cases(server: BenchServer, populations: Client[][]): Promise<Case[]> {
  const bearer = (c: Client) => ({ authorization: `Bearer ${c.token}` });
  const of = (i: number) => populations[Math.min(i, populations.length - 1)]!;
  const etags = new Map<string, string>();
  for (const c of of(2)) {
    if (etags.has(c.taskId)) continue;
    const answer = await fetch(`${server.url}/api/v1/tasks/${c.taskId}`, { headers: bearer(c) });
    etags.set(c.taskId, answer.headers.get('etag')!);
  }
  const batch = Array.from({ length: BATCH_SIZE }, (_, i) => ({ ...NEW_TASK, title: `${NEW_TASK.title} ${i}` }));
  const getTask = (id: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { id } } });
  return [
    [
      'GET /api/v1/auth/me',
      { url: server.url, requests: of(0).map((c) => ({ path: '/api/v1/auth/me', headers: bearer(c) })) },
      'target ≥ 28,000 req/s',
    ],
    [
      'GET /api/v1/tasks/{id}',
      { url: server.url, requests: of(1).map((c) => ({ path: `/api/v1/tasks/${c.taskId}`, headers: bearer(c) })) },
      'target ≥ 18,000 req/s',
    ],
    [
      'GET /api/v1/tasks/{id}, If-None-Match → 304',
      {
        url: server.url,
        expectStatus: 304,
        requests: of(2).map((c) => ({
          path: `/api/v1/tasks/${c.taskId}`,
          headers: { ...bearer(c), 'if-none-match': etags.get(c.taskId)! },
        })),
      },
      'target ≥ the 200 above',
    ],
    [
      'POST /api/v1/tasks (history, search index, journal)',
      {
        url: server.url,
        method: 'POST',
        expectStatus: 201,
        requests: of(3).map((c) => ({
          path: '/api/v1/tasks',
          headers: { ...bearer(c), 'content-type': 'application/json' },
          body: JSON.stringify({ tree_id: c.treeId, ...NEW_TASK }),
        })),
      },
      server.kind === 'sqlite' ? 'target ≥ 4,000 req/s' : 'target ≥ 1,500 req/s',
    ],
    [
      'POST /mcp tools/call get_task, 2025-11-25 session',
      {
        url: `${server.url}/mcp`,
        method: 'POST',
        requests: await Promise.all(
          of(4).map(async (c) => ({
            headers: { ...MCP_HEADERS, ...bearer(c), ...(await openSession(server, c)) },
            body: getTask(c.taskId),
          })),
        ),
      },
      'target ≥ 7,000 req/s and ≥ 0.4 of REST',
    ],
    [
      'POST /mcp tools/call get_task, 2026-07-28 (no session)',
      {
        url: `${server.url}/mcp`,
        method: 'POST',
        requests: of(5).map((c) => ({
          headers: {
            ...MCP_HEADERS,
            ...bearer(c),
            'mcp-protocol-version': MODERN,
            'mcp-method': 'tools/call',
            'mcp-name': 'get_task',
          },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 2,
            method: 'tools/call',
            params: {
              name: 'get_task',
              arguments: { id: c.taskId },
              _meta: {
                'io.modelcontextprotocol/protocolVersion': MODERN,
                'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
                'io.modelcontextprotocol/clientCapabilities': {},
              },
            },
          }),
        })),
      },
      'target ≥ 7,000 req/s and ≥ 0.4 of REST',
    ],
    [
      'POST /api/v1/tasks/batch, create of 50',
      {
        url: server.url,
        method: 'POST',
        requests: of(6).map((c) => ({
          path: '/api/v1/tasks/batch',
          headers: { ...bearer(c), 'content-type': 'application/json' },
          body: JSON.stringify({ create: batch.map((task) => ({ tree_id: c.treeId, ...task })) }),
        })),
      },
      'target: tasks/s ≥ 5× the single creates (SQLite), p99 < 50 ms',
    ],
    [
      'POST /mcp tools/call create_tasks of 50, 2025-11-25 session',
      {
        url: `${server.url}/mcp`,
        method: 'POST',
        requests: await Promise.all(
          of(7).map(async (c) => ({
            headers: { ...MCP_HEADERS, ...bearer(c), ...(await openSession(server, c)) },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 2,
              method: 'tools/call',
              params: { name: 'create_tasks', arguments: { tree_id: c.treeId, tasks: batch } },
            }),
          })),
        ),
      },
      'target: tasks/s ≥ 5× the single creates (SQLite), p99 < 50 ms',
    ],
  ];
}

/** An MCP session of the 2025 protocol opened with the client's token; its headers for later calls. */
async function openSession(server: BenchServer, client: Client): Promise<Record<string, string>> {
  const answer = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, authorization: `Bearer ${client.token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    }),
  });
  if (answer.status !== 200) throw new Error(`initialize answered ${answer.status}`);
  await answer.arrayBuffer();
  return { 'mcp-session-id': answer.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
}
