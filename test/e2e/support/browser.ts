import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { describe, expect } from 'vitest';

/** Debian's chromium (apt-get install -y chromium), or CHROMIUM_PATH. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);

/**
 * `describe` when Chromium is here; otherwise a visible skip, or a failure when REQUIRE_BROWSER=1
 * (CI installs Chromium and sets it, so the browser tests can never silently vanish there).
 */
export const browserDescribe: typeof describe = (() => {
  if (available) return describe;
  if (process.env.REQUIRE_BROWSER === '1')
    throw new Error(`REQUIRE_BROWSER=1 but no Chromium at ${CHROMIUM}: apt-get install -y chromium`);
  console.warn(
    `\n  NOTICE: browser tests skipped, no Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)\n`,
  );
  return describe.skip;
})() as typeof describe;

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Console messages the CSP raised: the app must never trip its own policy. */
  cspViolations: string[];
  /** alert/confirm/prompt dialogs: none may open (user strings are text, never markup). */
  dialogs: string[];
  pageErrors: string[];
}

/** A phone's screen: 390 CSS pixels wide, a touch screen that honours the page's viewport tag. */
export const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/**
 * A watched page; `javaScript: false` is a browser with scripts off (the server-rendered OAuth pages
 * must work there); `phone: true` is a 390 px touch screen instead of a 1280 px desktop.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  locale = 'en-US',
  options: { javaScript?: boolean; phone?: boolean } = {},
): Promise<Watched> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    ...(options.phone === true ? PHONE : {}),
    locale,
    timezoneId: 'Europe/Berlin',
    javaScriptEnabled: options.javaScript ?? true,
  });
  // Generous: a 2-core CI machine runs these beside the rest of the suite; a wait that passes is no slower for it.
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  const watched: Watched = { page, context, cspViolations: [], dialogs: [], pageErrors: [] };
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) watched.cspViolations.push(message.text());
  });
  page.on('dialog', (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => watched.pageErrors.push(error.message));
  return watched;
}

const require = createRequire(import.meta.url);
const axeSource: string = (require('axe-core') as { source: string }).source;

/**
 * axe-core in the page. evaluate() runs through the DevTools protocol, which the page's CSP does not
 * govern, so the app's real policy stays on while it is scanned.
 */
export async function expectAccessible(page: Page | Frame, name: string): Promise<void> {
  await page.evaluate(axeSource);
  // A string, not a function: the root tsconfig has no DOM types, and this runs in the page.
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) })))`)) as {
    id: string;
    impact: string | null;
    help: string;
    targets: string[];
  }[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious, `axe on ${name}`).toEqual([]);
}

const SHOTS = process.env.SHOTS_DIR ?? '/work/tmp/shots';

/** Screenshots for people to look at (never compared, never committed); only when SHOTS=1. */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.SHOTS !== '1') return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** How far the page scrolls sideways: 0 when it fits its window's width. */
export async function sidewaysOverflow(page: Page): Promise<number> {
  return (await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')) as number;
}
