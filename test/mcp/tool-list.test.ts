import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTree } from '../helpers/data.js';
import { connectMcp, initializeMessage, rawMcp } from '../helpers/mcp.js';
import { ALL_TOOLS, READ_TOOLS } from './tool-names.js';
import { setUserPlan } from '../../src/domain/accounts/accounts.js';

/** The §17 tools that change or remove what exists, and must be told the version read. */
const VERSIONED = ['update_project', 'update_task', 'delete_task', 'assign_task'];
const DESTRUCTIVE = ['delete_task', 'revert_change'];
const TOOLS_LIST_MAX = 48 * 1024;

const toolsList = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

/** The raw JSON-RPC body of tools/list for this token, as a client of the 2025 revisions receives it. */
async function toolsListBody(url: string, token: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const opened = await rawMcp(url, initializeMessage, auth);
  expect(opened.status).toBe(200);
  const headers = {
    ...auth,
    'mcp-session-id': opened.headers.get('mcp-session-id')!,
    'mcp-protocol-version': opened.json.result.protocolVersion,
  };
  const listed = await rawMcp(url, toolsList, headers);
  expect(listed.status).toBe(200);
  return listed.text;
}

/**
 * CONTRACT §17: which tools each credential sees, what every tool declares, and how small the
 * list stays. The tool names per credential come from test/mcp/tool-names.ts.
 */
describe.each(databases)('MCP tool list (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(async () => t.stop());

  async function namesFor(plan: 'seed' | 'sprout' | 'grove', scopes: string[]) {
    // A Seed account cannot make a write token: it is made on Sprout, then the plan lapses to Seed.
    const person = await makeUser(t.url, t.app, { plan: plan === 'seed' ? 'sprout' : plan });
    const tree = await makeTree(person.browser);
    const made = await makeToken(person, { scopes });
    if (plan === 'seed') await setUserPlan(t.app.deps, person.email, 'seed', null);
    const names: string[][] = [];
    for (const modern of [false, true]) {
      const mcp = await connectMcp(t.url, made.value, { modern });
      try {
        names.push((await mcp.client.listTools()).tools.map((tool) => tool.name).sort());
      } finally {
        await mcp.close();
      }
    }
    expect(names[0]).toEqual(names[1]);
    return { names: names[0]!, tree, person };
  }

  it('shows a Seed token and a read-only token the reads only', async () => {
    expect((await namesFor('seed', ['read', 'write'])).names).toEqual(READ_TOOLS);
    expect((await namesFor('sprout', ['read'])).names).toEqual(READ_TOOLS);
  });

  it('shows a Sprout writer every read and write tool, and a scoped one the same tools', async () => {
    expect((await namesFor('sprout', ['read', 'write'])).names).toEqual(ALL_TOOLS);
    const person = await makeUser(t.url, t.app, { plan: 'sprout' });
    const tree = await makeTree(person.browser);
    const scoped = await makeToken(person, { scopes: ['read', 'write'], tree_ids: [tree.id] });
    const mcp = await connectMcp(t.url, scoped.value);
    try {
      expect((await mcp.client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS);
    } finally {
      await mcp.close();
    }
  });

  it('keeps tools/list of a Grove token with every scope within 48 KiB, and every tool well described', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const body = await toolsListBody(t.url, made.value);
    const bytes = Buffer.byteLength(body);
    process.stdout.write(
      `tools/list for a Grove token with every scope: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB)\n`,
    );
    expect(bytes).toBeLessThanOrEqual(TOOLS_LIST_MAX);

    const tools = JSON.parse(body).result.tools as any[];
    expect(tools.map((tool) => tool.name).sort()).toEqual([...ALL_TOOLS, 'get_attachment', 'transcribe_audio'].sort());
    for (const tool of tools) {
      expect(tool.inputSchema.type, tool.name).toBe('object');
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      expect(tool.title, tool.name).toEqual(expect.any(String));
      // One or two sentences that say when to use it.
      const sentences = (tool.description as string).split(/(?<=[.!?])\s+/).filter((s) => s.length > 0);
      expect(sentences.length, tool.name).toBeGreaterThanOrEqual(1);
      expect(sentences.length, `${tool.name}: ${tool.description}`).toBeLessThanOrEqual(2);
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(
        READ_TOOLS.includes(tool.name) || tool.name === 'get_attachment',
      );
      expect(tool.annotations?.destructiveHint === true, tool.name).toBe(DESTRUCTIVE.includes(tool.name));
      if (VERSIONED.includes(tool.name)) expect(tool.inputSchema.required, tool.name).toContain('expected_version');
      if (!tool.annotations.readOnlyHint && tool.name !== 'transcribe_audio')
        expect(Object.keys(tool.outputSchema.properties), tool.name).toContain('change_id');
    }
  });

  it('answers the same list to a 2026-07-28 client', async () => {
    const person = await makeUser(t.url, t.app, { plan: 'grove' });
    const made = await makeToken(person, { scopes: ['read', 'write', 'attachments'] });
    const legacy = JSON.parse(await toolsListBody(t.url, made.value)).result.tools;
    const mcp = await connectMcp(t.url, made.value, { modern: true });
    try {
      const modern = (await mcp.client.listTools()).tools;
      expect(modern.map((tool) => tool.name)).toEqual(legacy.map((tool: any) => tool.name));
    } finally {
      await mcp.close();
    }
  });
});
