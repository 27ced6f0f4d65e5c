import type { App } from '../../src/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { upload } from '../helpers/files.js';
import { casesFor, operationsOf, type FuzzCase, type Seeds } from './rest-cases.js';
import { MCP_PROTOCOL, mcpCases } from './mcp-cases.js';

/**
 * A paid-plan (Grove) account with a token holding every scope and one of each record, then
 * every fuzz case: each operation of the service's own OpenAPI document, and /mcp.
 */
export async function buildFuzz(baseUrl: string, app: App): Promise<{ cases: FuzzCase[]; operations: number }> {
  const person = await makeUser(baseUrl, app, { plan: 'grove' });
  const { agent, token, value } = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
  const tree = await makeTree(agent);
  const project = await makeProject(agent, tree.id);
  const task = await makeTask(agent, tree.id, { project_id: project.id });
  const stored = await upload(agent, `/api/v1/tasks/${task.id}/attachments`, [
    { data: Buffer.from('fuzz seed'), name: 'seed.txt', type: 'text/plain' },
  ]);
  if (stored.status !== 201) throw new Error(`seed upload failed: ${stored.status}`);
  const seeds: Seeds = {
    tree: tree.id,
    project: project.id,
    task: task.id,
    attachment: stored.body.attachment.id,
    job: 'spj_0000000000000000',
    token: token.id,
    user: person.user.id,
  };
  const auth = { authorization: `Bearer ${value}` };

  const doc = (await (await fetch(`${baseUrl}/api/v1/openapi.json`, { headers: auth })).json()) as Record<string, any>;
  const operations = operationsOf(doc);
  const cases = operations.flatMap((op) => casesFor(doc, op, seeds, auth));

  const init = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: MCP_PROTOCOL, capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } },
    }),
  });
  const session = init.headers.get('mcp-session-id');
  if (init.status !== 200 || session === null) throw new Error(`MCP initialize failed: ${init.status}`);
  const mcpHeaders = { ...auth, 'mcp-session-id': session };
  const listed = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      ...mcpHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MCP_PROTOCOL,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
  });
  const tools = ((await listed.json()) as { result: { tools: never[] } }).result.tools;
  return { cases: [...cases, ...mcpCases(tools, seeds, mcpHeaders)], operations: operations.length + 1 };
}

/** A small deterministic PRNG (mulberry32), so a sample is the same on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * At most `perOperation` cases of each operation, taken in turn from each category (so every
 * operation keeps its valid call and at least one NUL, range, type, size and framing case).
 */
export function sampleCases(cases: FuzzCase[], perOperation: number, seed = 1): FuzzCase[] {
  const random = prng(seed);
  const byOperation = new Map<string, Map<string, FuzzCase[]>>();
  for (const c of cases) {
    const categories = byOperation.get(c.operation) ?? new Map<string, FuzzCase[]>();
    byOperation.set(c.operation, categories);
    categories.set(c.category, [...(categories.get(c.category) ?? []), c]);
  }
  const picked: FuzzCase[] = [];
  for (const categories of byOperation.values()) {
    const queues = [...categories.values()].map((list) =>
      list
        .map((c) => ({ c, k: random() }))
        .sort((x, y) => x.k - y.k)
        .map((x) => x.c),
    );
    let taken = 0;
    while (taken < perOperation && queues.some((q) => q.length > 0)) {
      for (const queue of queues) {
        const next = queue.shift();
        if (next === undefined || taken >= perOperation) continue;
        picked.push(next);
        taken++;
      }
    }
  }
  return picked;
}
