// Prints what the browser downloads on first load (the entry chunk, its static imports and CSS),
// gzipped, from Vite's manifest; fails the build past the 150 KB budget of issue 14.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';

const dir = new URL('../dist/web/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dir, '.vite/manifest.json'), 'utf8'));
const BUDGET = 150 * 1024;

const seen = new Set();
function walk(key) {
  const chunk = manifest[key];
  if (chunk === undefined || seen.has(chunk.file)) return;
  seen.add(chunk.file);
  for (const css of chunk.css ?? []) seen.add(css);
  for (const imported of chunk.imports ?? []) walk(imported);
}
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) walk(key);

let js = 0;
let css = 0;
for (const file of seen) {
  const size = gzipSync(readFileSync(join(dir, file)), { level: 9 }).length;
  if (file.endsWith('.js')) js += size;
  else css += size;
}
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
console.log(`web app first load: ${kb(js)} JS + ${kb(css)} CSS gzipped (${seen.size} files; budget ${kb(BUDGET)} JS)`);
if (js > BUDGET) {
  console.error('first-load JavaScript is over budget');
  process.exit(1);
}
