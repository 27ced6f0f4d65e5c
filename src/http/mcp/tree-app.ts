import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ProtocolError, ProtocolErrorCode, type McpServer } from '@modelcontextprotocol/server';

/*
 * The MCP App of CONTRACT §17 (the MCP Apps extension): one HTML document that draws a tree from
 * get_tree's result, built by `npm run build` from web/src/mcp-app (the web app's layout code)
 * into dist/mcp-app/tree.html with its script and style inlined. Hosts that render MCP Apps read
 * it with resources/read and show it in a sandboxed frame beside get_tree's result.
 *
 * The names are ext-apps' own (RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY); the package is a
 * development dependency only, so the service spells them out, and test/mcp/tree-app.test.ts
 * holds them equal to the package's.
 */

export const TREE_APP_URI = 'ui://tasktree/tree.html';
export const TREE_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * What get_tree's definition carries: `_meta.ui.resourceUri`, and the flat `ui/resourceUri` key
 * older hosts read (ext-apps' `registerAppTool` writes both).
 */
export const TREE_APP_TOOL_META = { ui: { resourceUri: TREE_APP_URI }, 'ui/resourceUri': TREE_APP_URI };

/** The document asks the host for a border; it fetches nothing, so it needs no CSP domains. */
const RESOURCE_META = { ui: { prefersBorder: true } };

/** Where the build puts it; the same place from src/http/mcp (tsx) and dist/http/mcp (node). */
export const TREE_APP_FILE = fileURLToPath(new URL('../../../dist/mcp-app/tree.html', import.meta.url));

let document: Promise<string> | undefined;

/** The built document, read once; a failed read (not built yet) is tried again next time. */
function treeAppDocument(): Promise<string> {
  document ??= readFile(TREE_APP_FILE, 'utf8').catch((err: unknown) => {
    document = undefined;
    throw err;
  });
  return document;
}

/** Lists and serves the App to every credential that sees get_tree (the `read` capability). */
export function registerTreeApp(server: McpServer): void {
  server.registerResource(
    'tree-app',
    TREE_APP_URI,
    {
      title: 'Tree drawing (MCP App)',
      description: "Draws a tree from get_tree's result, in the tree's style; choosing a task shows it.",
      mimeType: TREE_APP_MIME_TYPE,
      _meta: RESOURCE_META,
    },
    async (uri) => {
      let text: string;
      try {
        text = await treeAppDocument();
      } catch {
        throw new ProtocolError(ProtocolErrorCode.InternalError, 'The MCP App is not built on this server.');
      }
      return { contents: [{ uri: uri.href, mimeType: TREE_APP_MIME_TYPE, text, _meta: RESOURCE_META }] };
    },
  );
}
