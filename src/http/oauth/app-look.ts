import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEB_DIR } from '../web.js';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  css?: string[];
}

/**
 * The browser app's stylesheets, as `vite build` named them (hashed), read from its manifest:
 * the server-rendered OAuth pages link the very same files, so they look like the app without a
 * second copy of its styles, and the CSP can stay `style-src 'self'`. Without a build the list is
 * empty and the pages still work, unstyled.
 */
export function appStylesheets(dir: string = WEB_DIR): string[] {
  const path = join(dir, '.vite', 'manifest.json');
  if (!existsSync(path) || !existsSync(join(dir, 'index.html'))) return [];
  const manifest = JSON.parse(readFileSync(path, 'utf8')) as Record<string, ManifestChunk>;
  const entry = manifest['index.html'] ?? Object.values(manifest).find((chunk) => chunk.isEntry === true);
  return (entry?.css ?? []).filter((file) => existsSync(join(dir, file))).map((file) => `/${file}`);
}
