import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseKind } from '../../helpers/app.js';
import { startTestApp } from '../../helpers/app.js';
import { ensureWebBuilt } from '../../helpers/web-build.js';
import { launch, openPage, type Watched } from './browser.js';

export const PASSWORD = 'correct horse battery staple';

/** One built app on a loopback socket, one Chromium and one watched page for a describe block. */
export function useBrowserApp(kind: DatabaseKind, env: () => Record<string, string> = () => ({})) {
  const state = {} as { t: Awaited<ReturnType<typeof startTestApp>>; browser: Browser; w: Watched };
  beforeAll(async () => {
    await ensureWebBuilt();
    state.t = await startTestApp(kind, env());
    state.browser = await launch();
    state.w = await openPage(state.browser, state.t.url);
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.t?.stop();
  });
  return state;
}

let counter = 0;
export function uniqueEmail(tag: string): string {
  counter += 1;
  return `${tag}-${process.pid}-${Date.now()}-${counter}@example.test`;
}
