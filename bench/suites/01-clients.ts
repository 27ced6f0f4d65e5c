import {
  alternate,
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
import { createToken } from '../../src/domain/agents/tokens.js';
import { insertTasksBulk } from '../../src/domain/trees/tasks.js';
import { SEARCH_TASKS, searchQuery, searchTaskFields } from '../search-data.js';
import { startSearchFloor } from '../search-floor.js';
import { startBatchFloor } from '../batch-floor.js';

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
        const only = process.env.BENCH_CASE;
        const populations = await casePopulations(server, only);
        // The REST read again beside each case compared with it, loaded in turn with it
        // (BENCH_SHARE_ROUNDS rounds, default 3, medians), on tokens of its own (50 users × 20:
        // the first read's have spent part of their minute). Cases minutes apart meet a service
        // in another state (after the creates: a bigger heap and database) and this VM at another
        // speed; loaded in turn, both meet the same.
        const besides = new Map<string, Client[]>();
        for (const name of CASE_NAMES.filter((n) => comparedWithRead(n) && chosen(n, only)))
          besides.set(name, await population(server, 50));
        // The search's floor prepares its statement through the in-process app, before it stops.
        const floor = chosen(CASE_NAMES[SEARCH]!, only) ? await startSearchFloor(server, populations[SEARCH]!) : null;
        await server.asProcess();
        let rest: [measured: Measurement, base: Measurement] | null = null;
        let create: Measurement | null = null;
        for (const [name, options, target] of (await cases(server, populations)).filter(([n]) => chosen(n, only))) {
          const [measured, base] = await bracketed(baseline.url, name, options);
          if (name === CASE_NAMES[READ]) rest = [measured, base];
          if (name === CASE_NAMES[CREATE]) create = measured;
          const ofRest = comparedWithRead(name) && rest !== null ? `; ${shareOfRest([measured, base], rest)}` : '';
          const batchRate =
            name === CASE_NAMES[BATCH] || name === CASE_NAMES[MCP_BATCH] ? `; ${tasksPerSecond(measured, create)}` : '';
          const besideClients = besides.get(name);
          const inTurn =
            besideClients === undefined
              ? null
              : await alternate(
                  [`${CASE_NAMES[READ]}, in turn with the case above`, readLoad(server.url, besideClients)],
                  [name, options],
                  Number(process.env.BENCH_SHARE_ROUNDS ?? 3),
                );
          const ofInTurn =
            inTurn === null
              ? ''
              : `; ${(inTurn[1].requestsPerSecond / inTurn[0].requestsPerSecond).toFixed(2)} of the read loaded in turn with it (medians: ${inTurn[1].requestsPerSecond.toFixed(0)} against the row below)`;
          report(base);
          report(measured, base, target + ofRest + ofInTurn + batchRate);
          if (inTurn !== null) report(inTurn[0], undefined, 'tokens of their own');
          if (name === CASE_NAMES[SEARCH] && floor !== null) {
            const [bare, bareBase] = await bracketed(
              baseline.url,
              'floor: bare Fastify + the search statement alone, prepared once, rows as JSON',
              { url: floor.url, requests: floor.paths.map((path) => ({ path })) },
            );
            report(bareBase);
            report(bare, bareBase, `the search is ${shareOf([measured, base], [bare, bareBase])} of its floor`);
          }
          if (name === CASE_NAMES[BATCH] && server.kind === 'sqlite') {
            // What the p99 of a batch is made of at these connections: SQLite's own writes, one batch at a time.
            const batchFloor = await startBatchFloor(server);
            try {
              const [bare, bareBase] = await bracketed(
                baseline.url,
                'floor: bare Fastify + the batch’s rows, entries and counter written raw in one transaction',
                { ...options, url: batchFloor.url, requests: options.requests!.map((r) => ({ ...r, path: '/' })) },
              );
              report(bareBase);
              report(bare, bareBase, `the batch is ${shareOf([measured, base], [bare, bareBase])} of its floor`);
            } finally {
              await batchFloor.close();
            }
          }
        }
        await floor?.close();
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
function shareOfRest(mcp: [Measurement, Measurement], rest: [Measurement, Measurement]): string {
  return `${shareOf(mcp, rest)} of REST`;
}

/** One figure as a share of another, as measured and against each one's own baseline. */
function shareOf([a, aBase]: [Measurement, Measurement], [b, bBase]: [Measurement, Measurement]): string {
  const measured = a.requestsPerSecond / b.requestsPerSecond;
  const againstBaselines =
    a.requestsPerSecond / aBase.requestsPerSecond / (b.requestsPerSecond / bBase.requestsPerSecond);
  return `${measured.toFixed(2)} (${againstBaselines.toFixed(2)} against the baselines)`;
}

/** Tasks a second of a batch case, against the single creates of POST /api/v1/tasks when they ran too. */
function tasksPerSecond(batch: Measurement, single: Measurement | null): string {
  const tasks = batch.requestsPerSecond * BATCH_SIZE;
  const ratio = single === null ? '' : ` = ${(tasks / single.requestsPerSecond).toFixed(1)}× the single creates`;
  return `${tasks.toFixed(0)} tasks/s${ratio}`;
}

/** The cases measured as a share of the REST read: MCP's get_task and the tree-scoped read. */
function comparedWithRead(name: string): boolean {
  return name.includes('get_task') || name.includes('tree-scoped');
}

/** GET /api/v1/tasks/{id} by each client of the population, its own task. */
function readLoad(url: string, clients: Client[]): LoadOptions {
  return {
    url,
    requests: clients.map((c) => ({
      path: `/api/v1/tasks/${c.taskId}`,
      headers: { authorization: `Bearer ${c.token}` },
    })),
  };
}

/** Whether BENCH_CASE (`only`: a text, or texts separated by `|`) picks the case of this name. */
function chosen(name: string, only: string | undefined): boolean {
  return only === undefined || only.split('|').some((part) => name.includes(part));
}

/** The cases' names, in order (BENCH_CASE picks those holding its text). */
const CASE_NAMES = [
  'GET /api/v1/auth/me',
  'GET /api/v1/tasks/{id}',
  'GET /api/v1/tasks/{id}, If-None-Match → 304',
  'POST /api/v1/tasks (history, search index, journal)',
  'POST /mcp tools/call get_task, 2025-11-25 session',
  'POST /mcp tools/call get_task, 2026-07-28 (no session)',
  'GET /api/v1/search, 2 terms, 5,000 tasks (25 users × 200), default page',
  'POST /api/v1/tasks with If-Match',
  'GET /api/v1/tasks/{id}, tree-scoped token',
  'POST /api/v1/tasks/batch, create of 50',
  'POST /mcp tools/call create_tasks of 50, 2025-11-25 session',
];
const CASE_COUNT = CASE_NAMES.length;
/** Cases named by their index (into `CASE_NAMES` and `populations`). */
const READ = 1;
const CREATE = 3;
const SEARCH = 6;
const SCOPED = 8;
const BATCH = 9;
const MCP_BATCH = 10;
const BATCH_SIZE = 50;
/**
 * A population for every case: the plain one for most, 200 tasks per user for the search, and
 * tokens bound to each user's one tree for the scoped read.
 */
export async function casePopulations(server: BenchServer, only?: string): Promise<Client[][]> {
  // BENCH_CASE (`only`) narrows the run: the cases left out share one plain population.
  const names = CASE_NAMES;
  let spare: Client[] | null = null;
  const populations: Client[][] = [];
  for (let i = 0; i < CASE_COUNT; i++) {
    if (!chosen(names[i]!, only)) populations.push((spare ??= await population(server)));
    else if (i === SEARCH) populations.push(await searchPopulation(server));
    else if (i === SCOPED) populations.push(await scopedPopulation(server));
    // A batch case creates 50 tasks a request: Grove's tasks per tree leave it room for minutes.
    else if (i === BATCH || i === MCP_BATCH) populations.push(await population(server, 25, 20, 'grove'));
    else populations.push(await population(server));
  }
  return populations;
}

/** 25 users × 20 tokens, each user's tree holding 200 tasks of bench/search-data.ts besides the client's own. */
export async function searchPopulation(server: BenchServer): Promise<Client[]> {
  const clients = await population(server);
  const deps = server.app.deps;
  for (const [userId, u] of userIndexes(clients)) {
    const c = clients.find((x) => x.actor.user.id === userId)!;
    const fields = Array.from({ length: SEARCH_TASKS }, (_, i) => searchTaskFields(u, i));
    for (let start = 0; start < fields.length; start += 2_500)
      await insertTasksBulk(deps, c.actor, c.treeId, fields.slice(start, start + 2_500));
  }
  return clients;
}

/** Each user of a population by the order of their first client: user `u` has the tasks and the query of `u`. */
export function userIndexes(clients: Client[]): Map<string, number> {
  const indexes = new Map<string, number>();
  for (const c of clients) if (!indexes.has(c.actor.user.id)) indexes.set(c.actor.user.id, indexes.size);
  return indexes;
}

/**
 * 50 users × 19 tokens, each bound to its user's one tree (CONTRACT §16.1): enough tokens for the
 * case and its loads in turn with the read to stay under the per-minute limit.
 */
async function scopedPopulation(server: BenchServer): Promise<Client[]> {
  const clients = await population(server, 50, 1);
  const scoped: Client[] = [];
  for (const c of clients)
    // 19: the user's first token (unscoped, made with the user) is the 20th one may hold.
    for (let i = 0; i < 19; i++) {
      const { value } = await createToken(server.app.deps, c.actor, { name: `scoped ${i}`, tree_ids: [c.treeId] });
      scoped.push({ ...c, token: value });
    }
  return scoped;
}

/**
 * Every case of this suite against a running service, in order; bench/profile.ts picks one of
 * them. Case i loads the clients of `populations[i]` (the last one when there are fewer).
 */
export async function cases(server: BenchServer, populations: Client[][]): Promise<Case[]> {
  const bearer = (c: Client) => ({ authorization: `Bearer ${c.token}` });
  const of = (i: number) => populations[Math.min(i, populations.length - 1)]!;
  const etags = new Map<string, string>();
  for (const c of [...of(2), ...of(7)]) {
    if (etags.has(c.taskId)) continue;
    const answer = await fetch(`${server.url}/api/v1/tasks/${c.taskId}`, { headers: bearer(c) });
    etags.set(c.taskId, answer.headers.get('etag')!);
  }
  // Each user searches their own two words; page one holds 50 tasks (checked for the first user).
  const searchers = userIndexes(of(SEARCH));
  const searchPath = (c: Client) =>
    `/api/v1/search?q=${encodeURIComponent(searchQuery(searchers.get(c.actor.user.id)!))}`;
  const found = (await fetch(`${server.url}${searchPath(of(SEARCH)[0]!)}`, { headers: bearer(of(SEARCH)[0]!) }).then(
    (r) => r.json(),
  )) as { items: unknown[] };
  const matches = found.items.length;
  const batch = Array.from({ length: BATCH_SIZE }, (_, i) => ({ ...NEW_TASK, title: `${NEW_TASK.title} ${i}` }));
  const getTask = (id: string) =>
    JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_task', arguments: { id } } });
  return [
    [
      'GET /api/v1/auth/me',
      { url: server.url, requests: of(0).map((c) => ({ path: '/api/v1/auth/me', headers: bearer(c) })) },
      'target ≥ 28,000 req/s',
    ],
    [CASE_NAMES[READ]!, readLoad(server.url, of(READ)), 'target ≥ 18,000 req/s'],
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
      CASE_NAMES[SEARCH]!,
      {
        url: server.url,
        requests: of(SEARCH).map((c) => ({ path: searchPath(c), headers: bearer(c) })),
      },
      `${matches} hits for the first user; ${server.kind === 'sqlite' ? 'target p99 < 8 ms' : 'no target'}`,
    ],
    [
      'POST /api/v1/tasks with If-Match',
      {
        url: server.url,
        method: 'POST',
        expectStatus: 201,
        requests: of(7).map((c) => ({
          path: '/api/v1/tasks',
          headers: { ...bearer(c), 'content-type': 'application/json', 'if-match': etags.get(c.taskId)! },
          body: JSON.stringify({ tree_id: c.treeId, ...NEW_TASK }),
        })),
      },
      'next to POST /api/v1/tasks above',
    ],
    [
      'GET /api/v1/tasks/{id}, tree-scoped token',
      {
        url: server.url,
        requests: of(SCOPED).map((c) => ({ path: `/api/v1/tasks/${c.taskId}`, headers: bearer(c) })),
      },
      'target within 10 % of the unscoped read',
    ],
    [
      CASE_NAMES[BATCH]!,
      {
        url: server.url,
        method: 'POST',
        requests: of(BATCH).map((c) => ({
          path: '/api/v1/tasks/batch',
          headers: { ...bearer(c), 'content-type': 'application/json' },
          body: JSON.stringify({ create: batch.map((task) => ({ tree_id: c.treeId, ...task })) }),
        })),
      },
      'target: tasks/s ≥ 5× the single creates (SQLite), p99 < 50 ms',
    ],
    [
      CASE_NAMES[MCP_BATCH]!,
      {
        url: `${server.url}/mcp`,
        method: 'POST',
        requests: await Promise.all(
          of(MCP_BATCH).map(async (c) => ({
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
