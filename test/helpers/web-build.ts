import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WEB_DIR } from '../../src/http/web.js';

const ROOT = join(WEB_DIR, '..', '..');
const LOCK = join(ROOT, 'dist', '.web-build.lock');

/**
 * The browser app as `npm run build` (and so `npm ci`) leaves it. A checkout that has not built it
 * yet builds it here once; parallel test files wait on a lock directory instead of building twice.
 */
export async function ensureWebBuilt(): Promise<string> {
  const index = join(WEB_DIR, 'index.html');
  if (existsSync(index)) return WEB_DIR;
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      await sleep(250);
      if (existsSync(index)) return WEB_DIR;
    }
  }
  try {
    if (!existsSync(index))
      execFileSync('npx', ['vite', 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
        cwd: ROOT,
        stdio: 'inherit',
      });
  } finally {
    rmdirSync(LOCK);
  }
  return WEB_DIR;
}
