import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [preact()],
  // `npm run dev:web`: the app from Vite, the API from a service started with `npm run dev`.
  server: { proxy: { '/api': 'http://127.0.0.1:8080', '/mcp': 'http://127.0.0.1:8080' } },
  build: {
    outDir: '../dist/web',
    emptyOutDir: true,
    // Inlined assets become data: URLs or inline code that the strict CSP (script-src 'self') refuses.
    assetsInlineLimit: 0,
    // The manifest lets the size script count exactly what index.html loads first.
    manifest: true,
    sourcemap: false,
    target: 'es2022',
  },
});
