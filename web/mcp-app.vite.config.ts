import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';

// The MCP App of CONTRACT §17: web/src/mcp-app/tree.html with the web app's tree code, built into
// one self-contained dist/mcp-app/tree.html (script and style inline) that the service serves as
// the resource ui://tasktree/tree.html. Apart from the web app's build: its first load is untouched.

// A Vite plugin that makes the build's HTML page self-contained: its script chunk and its CSS go
// inline into the page, and the separate files are dropped. The MCP App is one HTML document read
// with resources/read (CONTRACT §17); a host frames it with nothing to fetch it from.

/** `</script` inside the code would end the inline script early; `<\/script` means the same in JS. */
const safeScript = (code: string) => code.replace(/<\/(script)/gi, '<\\/$1');
const safeStyle = (css: string) => css.replace(/<\/(style)/gi, '<\\/$1');

function singleFile(): Plugin {
  return {
    name: 'tasktree:single-file',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const page of Object.values(bundle)) {
        if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue;
        let html = String(page.source);
        for (const [name, file] of Object.entries(bundle)) {
          const ref = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          if (file.type === 'chunk') {
            const tag = new RegExp(`<script type="module"[^>]*\\ssrc="[^"]*${ref}"[^>]*></script>`);
            if (!tag.test(html)) continue;
            // A function, not a string: `$&` and the like in the code must stay as they are.
            html = html.replace(tag, () => `<script type="module">${safeScript(file.code)}</script>`);
            delete bundle[name];
          } else if (name.endsWith('.css')) {
            const tag = new RegExp(`<link rel="stylesheet"[^>]*\\shref="[^"]*${ref}"[^>]*>`);
            if (!tag.test(html)) continue;
            html = html.replace(tag, () => `<style>${safeStyle(String(file.source))}</style>`);
            delete bundle[name];
          }
        }
        const left = /<script[^>]*\ssrc=|<link[^>]*\shref=/i.exec(html);
        if (left !== null) this.error(`${page.fileName} still loads a file: ${left[0]}`);
        page.source = html;
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./src/mcp-app/', import.meta.url)),
  base: './',
  plugins: [preact(), singleFile()],
  // No public/ folder: nothing may be fetched beside the document.
  publicDir: false,
  build: {
    outDir: fileURLToPath(new URL('../dist/mcp-app/', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    modulePreload: false,
    sourcemap: false,
    target: 'es2022',
    rolldownOptions: {
      input: fileURLToPath(new URL('./src/mcp-app/tree.html', import.meta.url)),
      output: { codeSplitting: false },
    },
  },
});
