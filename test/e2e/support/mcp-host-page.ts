import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The test host's page: a heading, a slot for the App's frame, and mcp-host.ts bundled inline. */
export async function mcpHostPage(): Promise<string> {
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('./mcp-host.ts', import.meta.url))],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  const script = bundled.outputFiles[0]!.text.replace(/<\/(script)/gi, '<\\/$1');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>A chat host</title>
<style>
body { font-family: system-ui, sans-serif; margin: 24px; background: #f4f4f5; color: #18181b; }
.message { max-width: 760px; background: #fff; border-radius: 12px; padding: 16px; box-shadow: 0 1px 3px #0002; }
iframe { display: block; width: 720px; height: 120px; border: 1px solid #d4d4d8; border-radius: 10px; }
</style>
</head>
<body>
<div class="message">
<p>The agent called <code>get_tree</code>:</p>
<div id="slot"></div>
</div>
<script>${script}</script>
</body>
</html>`;
}
