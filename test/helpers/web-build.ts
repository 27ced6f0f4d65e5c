import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEB_DIR } from '../../src/http/web.js';
import { TREE_APP_FILE } from '../../src/http/mcp/tree-app.js';

const ROOT = join(WEB_DIR, '..', '..');
const LOCK = join(ROOT, 'dist', '.web-build.lock');

/**
 * What `npm run build` (and so `npm ci`) leaves at `file`, from the Vite `config`. A checkout that
 * has not built it yet builds it here once; parallel test files wait on a lock directory instead
 * of building twice.
 */
async function ensureBuilt(file: string, config: string): Promise<void> {
  if (existsSync(file)) return;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      await sleep(250);
      if (existsSync(file)) return;
    }
  }
  try {
    if (!existsSync(file))
      execFileSync('npx', ['vite', 'build', '--config', config, '--logLevel', 'warn'], { cwd: ROOT, stdio: 'inherit' });
  } finally {
    rmdirSync(LOCK);
  }
}

/** The browser app, dist/web. */
export async function ensureWebBuilt(): Promise<string> {
  await ensureBuilt(join(WEB_DIR, 'index.html'), 'web/vite.config.ts');
  return WEB_DIR;
}

/** The MCP App's one document, dist/mcp-app/tree.html (CONTRACT §17). */
export async function ensureMcpAppBuilt(): Promise<string> {
  await ensureBuilt(TREE_APP_FILE, 'web/mcp-app.vite.config.ts');
  return TREE_APP_FILE;
}
