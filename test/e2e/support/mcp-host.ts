// A host page's script, as a chat client that renders MCP Apps runs it: the App's HTML in a
// sandboxed iframe (scripts only: an opaque origin, no access to the host), spoken to through
// ext-apps' AppBridge over postMessage; it hands the App the tool's input and result and sizes
// the frame as the App asks. Bundled for the browser by test/e2e/support/mcp-host-page.ts.
import type { Tool } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';

// Browser globals: the root tsconfig has no DOM types, and this file only runs in the page.
declare const window: any;
declare const document: any;

interface Show {
  html: string;
  tool: Tool;
  args: Record<string, unknown>;
  result: Record<string, unknown>;
  locale?: string;
}

window.hostEvents = [] as string[];

window.showApp = async ({ html, tool, args, result, locale = 'en-US' }: Show) => {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('title', `${tool.name} (MCP App)`);
  document.getElementById('slot').replaceChildren(frame);

  const bridge = new AppBridge(
    null,
    { name: 'test-host', version: '1.0.0' },
    { openLinks: {}, logging: {} },
    {
      hostContext: {
        theme: 'light',
        locale,
        timeZone: 'Europe/Berlin',
        platform: 'web',
        displayMode: 'inline',
        availableDisplayModes: ['inline'],
        containerDimensions: { maxHeight: 900, width: 720 },
        toolInfo: { tool },
      },
    },
  );
  bridge.addEventListener('sizechange', ({ height }: { height?: number }) => {
    if (height !== undefined) frame.style.height = `${Math.ceil(height)}px`;
    window.hostEvents.push(`size ${height}`);
  });
  bridge.addEventListener('loggingmessage', (message: unknown) =>
    window.hostEvents.push(`log ${JSON.stringify(message)}`),
  );
  const initialized = new Promise<void>((resolve) =>
    bridge.addEventListener('initialized', () => {
      window.hostEvents.push(`initialized ${JSON.stringify(bridge.getAppVersion())}`);
      resolve();
    }),
  );
  // Listening before the document loads, so its ui/initialize is not missed.
  await bridge.connect(new PostMessageTransport(frame.contentWindow, frame.contentWindow));
  frame.srcdoc = html;
  await initialized;
  await bridge.sendToolInput({ arguments: args });
  await bridge.sendToolResult(result as never);
  window.hostEvents.push('result sent');
};
