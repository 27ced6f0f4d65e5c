import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { databases, startTestApp } from '../helpers/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { connectMcp } from '../helpers/mcp.js';
import { ensureMcpAppBuilt } from '../helpers/web-build.js';
import { TREE_APP_MIME_TYPE, TREE_APP_URI } from '../../src/http/mcp/tree-app.js';

/**
 * The MCP App of CONTRACT §17 as a host finds it, through the official SDK client in both
 * protocol eras: get_tree's definition points at ui://tasktree/tree.html, resources/list lists it
 * with the MCP Apps MIME type, and resources/read answers one self-contained HTML document.
 * The browser test (test/e2e/tree-app.test.ts) renders it in a host.
 */
describe.each(databases)('the MCP App resource (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let token: string;
  let readOnly: string;

  beforeAll(async () => {
    await ensureMcpAppBuilt();
    t = await startTestApp(kind);
    const alice = await makeUser(t.url, t.app, { plan: 'sprout' });
    token = (await makeToken(alice, { scopes: ['read', 'write'] })).value;
    readOnly = (await makeToken(alice, { scopes: ['read'] })).value;
  });
  afterAll(async () => t.stop());

  it("uses ext-apps' own names", () => {
    expect(TREE_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
  });

  for (const modern of [false, true]) {
    it(`is listed, read as one HTML document, and named by get_tree (${modern ? '2026-07-28' : '2025-11-25'})`, async () => {
      const mcp = await connectMcp(t.url, token, { modern });
      try {
        const tools = (await mcp.client.listTools()).tools;
        const getTree = tools.find((tool) => tool.name === 'get_tree')!;
        expect(getTree._meta).toMatchObject({
          ui: { resourceUri: TREE_APP_URI },
          [RESOURCE_URI_META_KEY]: TREE_APP_URI,
        });
        expect(getToolUiResourceUri(getTree)).toBe(TREE_APP_URI);
        // Only get_tree carries the App.
        expect(tools.filter((tool) => tool._meta !== undefined).map((tool) => tool.name)).toEqual(['get_tree']);

        const listed = (await mcp.client.listResources()).resources.filter((r) => r.uri === TREE_APP_URI);
        expect(listed).toEqual([expect.objectContaining({ uri: TREE_APP_URI, mimeType: RESOURCE_MIME_TYPE })]);

        const read = await mcp.client.readResource({ uri: TREE_APP_URI });
        expect(read.contents).toHaveLength(1);
        const [content] = read.contents as { uri: string; mimeType?: string; text?: string; blob?: string }[];
        expect(content).toMatchObject({ uri: TREE_APP_URI, mimeType: RESOURCE_MIME_TYPE });
        expect(content!.blob).toBeUndefined();
        const html = content!.text!;
        expect(html.startsWith('<!doctype html>')).toBe(true);
        expect(html).toContain('<div id="app"></div>');
        // Self-contained: its script and style inline, nothing loaded from anywhere.
        expect(html).toMatch(/<script type="module">[\s\S]{10000,}<\/script>/);
        expect(html).toMatch(/<style>[\s\S]*\.tree-drawing[\s\S]*<\/style>/);
        expect(html).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*\shref=|<img|<iframe/i);
        const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
        expect(style).not.toMatch(/@import|url\(/i);
      } finally {
        await mcp.close();
      }
    });
  }

  it('is there for a read-only token, which sees get_tree too', async () => {
    const mcp = await connectMcp(t.url, readOnly);
    try {
      expect((await mcp.client.listResources()).resources.map((r) => r.uri)).toContain(TREE_APP_URI);
      const read = await mcp.client.readResource({ uri: TREE_APP_URI });
      expect((read.contents[0] as { text: string }).text).toContain('<!doctype html>');
      expect(getToolUiResourceUri((await mcp.client.listTools()).tools.find((x) => x.name === 'get_tree')!)).toBe(
        TREE_APP_URI,
      );
    } finally {
      await mcp.close();
    }
  });
});
