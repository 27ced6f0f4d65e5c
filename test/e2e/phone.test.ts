import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { databases } from '../helpers/app.js';
import { startTestApp } from '../helpers/app.js';
import { ensureWebBuilt } from '../helpers/web-build.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import {
  browserDescribe,
  expectAccessible,
  launch,
  openPage,
  shot,
  sidewaysOverflow,
  type Watched,
} from './support/browser.js';

/**
 * Every page at 390 px and at 1280 px, in English and Russian (CONTRACT §18): nothing scrolls
 * sideways, names wrap by word, the navigation folds behind `Menu`, and the task panel opens in view.
 */

/** Tree names with no break for 120 characters pushed the page to 1,963 px. */
const LONG_NAME = 'Grandmothers'.repeat(10);

const LANGUAGES = [
  { lang: 'en', locale: 'en-US', menu: 'Menu', billing: 'Billing', trees: 'Trees' },
  { lang: 'ru', locale: 'ru-RU', menu: 'Меню', billing: 'Оплата', trees: 'Деревья' },
] as const;

interface Seeded {
  person: Person;
  home: string;
  long: string;
  deepTitle: string;
  lastTitle: string;
}

async function seed(url: string, app: Parameters<typeof makeUser>[1], lang: 'en' | 'ru'): Promise<Seeded> {
  const person = await makeUser(url, app, { plan: 'grove', verified: lang === 'en' });
  const name = lang === 'en' ? 'Ada Lovelace' : 'Ада Лавлейс';
  expect((await person.browser.patch('/api/v1/auth/profile', { name, language: lang })).status).toBe(200);
  const home = (await makeTree(person.browser, { name: lang === 'en' ? 'Home' : 'Дача' })).id as string;
  // Four levels of projects: the deepest task's row is the narrowest.
  let parent: string | null = null;
  for (const level of ['Kitchen', 'Cupboards', 'Upper shelf', 'Left door']) {
    parent = (await makeProject(person.browser, home, { name: level, parent_id: parent })).id as string;
  }
  const deepTitle = lang === 'en' ? 'Fix the kitchen door hinge' : 'Починить петлю кухонной дверцы';
  await makeTask(person.browser, home, { title: deepTitle, project_id: parent, deadline: '2026-12-24' });
  // A long list (under the 50 rows a project shows at first), so the last task sits far below the drawing.
  const rows = Array.from({ length: 45 }, (_, i) => `Chore ${String(i + 1).padStart(2, '0')}`);
  const imported = await person.browser.request('POST', `/api/v1/trees/${home}/import`, {
    raw: `title\n${rows.join('\n')}\n`,
    contentType: 'text/csv',
  });
  expect(imported.status).toBe(201);
  const long = (await makeTree(person.browser, { name: LONG_NAME })).id as string;
  await makeTask(person.browser, long, { title: LONG_NAME });
  return { person, home, long, deepTitle, lastTitle: rows.at(-1)! };
}

async function signIn(w: Watched, url: string, person: Person): Promise<void> {
  await w.context.addCookies([{ name: 'tt_session', value: person.browser.cookies.get('tt_session')!, url }]);
}

/** Waits until the page has drawn what it loads: its main heading, and no request left running. */
async function settle(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('heading').first().waitFor();
  await page.waitForLoadState('networkidle');
}

browserDescribe.each(databases)('the app on a phone and a desktop (%s)', (kind) => {
  const state = {} as { t: Awaited<ReturnType<typeof startTestApp>>; browser: Browser };
  beforeAll(async () => {
    await ensureWebBuilt();
    state.t = await startTestApp(kind);
    state.browser = await launch();
  });
  afterAll(async () => {
    await state.browser?.close();
    await state.t?.stop();
  });

  for (const words of LANGUAGES) {
    for (const phone of [true, false]) {
      const width = phone ? 390 : 1280;

      it(`fits every page at ${width} px, ${words.lang}, axe clean`, async () => {
        const { t, browser } = state;
        const seeded = await seed(t.url, t.app, words.lang);
        const visitor = await openPage(browser, t.url, words.locale, { phone });
        const signedIn = await openPage(browser, t.url, words.locale, { phone });
        await signIn(signedIn, t.url, seeded.person);
        const pages: [Watched, string, string][] = [
          [visitor, 'landing', '/'],
          [visitor, 'about', '/about'],
          [visitor, 'signin', '/signin'],
          [visitor, 'register', '/register'],
          [visitor, 'forgot', '/forgot'],
          [visitor, 'reset', '/reset?token=nothing'],
          [visitor, 'notfound-out', '/nowhere'],
          [signedIn, 'trees', '/trees'],
          [signedIn, 'tree', `/trees/${seeded.home}`],
          [signedIn, 'tree-long-name', `/trees/${seeded.long}`],
          [signedIn, 'sharing', `/trees/${seeded.home}/sharing`],
          [signedIn, 'sharing-long-name', `/trees/${seeded.long}/sharing`],
          [signedIn, 'agents', '/agents'],
          [signedIn, 'account', '/account'],
          [signedIn, 'billing', '/billing'],
          [signedIn, 'verify', '/verify?token=nothing'],
          [signedIn, 'invite', '/invite?token=nothing&id=mbr_nothing'],
          [signedIn, 'notfound-in', '/nowhere'],
        ];
        const overflow: Record<string, number> = {};
        for (const [w, name, path] of pages) {
          await w.page.goto(path);
          await settle(w.page);
          overflow[name] = await sidewaysOverflow(w.page);
          await shot(w.page, `${words.lang}-${width}-${name}`, { fullPage: true });
          await expectAccessible(w.page, `${name} at ${width} px (${words.lang})`);
        }
        expect(overflow).toEqual(Object.fromEntries(pages.map(([, name]) => [name, 0])));

        // The header fits: every link of the landing page's navigation is within the window (behind Menu on a phone).
        await visitor.page.goto('/');
        await settle(visitor.page);
        if (phone) await visitor.page.getByRole('button', { name: words.menu }).click();
        for (const link of await visitor.page.getByRole('navigation').getByRole('link').all()) {
          const box = (await link.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }

        // Names wrap by word: a short name is one line; a four-word task title four projects deep, beside
        // its Done box, takes at most three lines (a title broken a letter a line took over twenty).
        await signedIn.page.goto('/trees');
        await settle(signedIn.page);
        const lineOf = async (selector: string, text: string) => {
          const element = signedIn.page.locator(selector, { hasText: text }).first();
          const box = (await element.boundingBox())!;
          // The root tsconfig has no DOM types; this runs in the page.
          const lineHeight = Number.parseFloat(
            await element.evaluate((e) => (globalThis as any).getComputedStyle(e).lineHeight as string),
          );
          return box.height / lineHeight;
        };
        expect(await lineOf('.tree-card-name', words.lang === 'en' ? 'Home' : 'Дача')).toBeLessThan(1.5);
        await signedIn.page.goto(`/trees/${seeded.home}`);
        await settle(signedIn.page);
        expect(await lineOf('.outline-title', seeded.deepTitle)).toBeLessThan(3.5);

        await visitor.context.close();
        await signedIn.context.close();
      }, 180_000);

      it(`${phone ? 'folds' : 'shows'} the navigation at ${width} px, ${words.lang}`, async () => {
        const { t, browser } = state;
        const seeded = await seed(t.url, t.app, words.lang);
        const w = await openPage(browser, t.url, words.locale, { phone });
        await signIn(w, t.url, seeded.person);
        await w.page.goto('/trees');
        await settle(w.page);
        const menu = w.page.getByRole('button', { name: words.menu, exact: true });
        const billing = w.page.getByRole('navigation').getByRole('link', { name: words.billing, exact: true });
        if (!phone) {
          expect(await menu.isVisible()).toBe(false);
          expect(await billing.isVisible()).toBe(true);
        } else {
          expect(await billing.isVisible()).toBe(false);
          expect(await menu.getAttribute('aria-expanded')).toBe('false');
          await menu.tap();
          expect(await menu.getAttribute('aria-expanded')).toBe('true');
          await billing.waitFor();
          await expectAccessible(w.page, `the open menu (${words.lang})`);
          await shot(w.page, `${words.lang}-${width}-menu-open`);
          // Choosing a link goes there and folds the menu.
          await billing.tap();
          await w.page.waitForURL(/\/billing$/);
          await billing.waitFor({ state: 'hidden' });
          expect(await menu.getAttribute('aria-expanded')).toBe('false');
          // Escape folds it too, and the links of the other pages stay links.
          await menu.tap();
          expect(await w.page.getByRole('navigation').getByRole('link').count()).toBe(5);
          await w.page.keyboard.press('Escape');
          await billing.waitFor({ state: 'hidden' });
          // Signed out, the landing page's header folds the same way.
          const visitor = await openPage(browser, t.url, words.locale, { phone });
          await visitor.page.goto('/');
          await settle(visitor.page);
          const visitorMenu = visitor.page.getByRole('button', { name: words.menu, exact: true });
          await visitorMenu.tap();
          expect(await visitor.page.getByRole('navigation').getByRole('link').count()).toBe(3);
          await visitor.context.close();
        }
        await w.context.close();
      }, 60_000);

      it(`opens the task panel in view after a ${phone ? 'tap' : 'click'} at ${width} px, ${words.lang}`, async () => {
        const { t, browser } = state;
        const seeded = await seed(t.url, t.app, words.lang);
        const w = await openPage(browser, t.url, words.locale, { phone });
        await signIn(w, t.url, seeded.person);
        await w.page.goto(`/trees/${seeded.home}`);
        await settle(w.page);
        // The last task of a long list, far below the drawing.
        const row = w.page.locator('.outline').getByRole('button', { name: seeded.lastTitle });
        await row.scrollIntoViewIfNeeded();
        if (phone) await row.tap();
        else await row.click();
        const panel = w.page.getByRole('complementary');
        await panel.waitFor();
        const box = (await panel.boundingBox())!;
        const viewport = w.page.viewportSize()!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(viewport.height + 1);
        expect(box.x + box.width).toBeLessThanOrEqual(viewport.width + 1);
        // The title field is there to edit, in view.
        const title = panel.getByRole('textbox').first();
        expect(await title.inputValue()).toBe(seeded.lastTitle);
        const field = (await title.boundingBox())!;
        expect(field.y).toBeGreaterThanOrEqual(0);
        expect(field.y + field.height).toBeLessThanOrEqual(viewport.height);
        expect(await sidewaysOverflow(w.page)).toBe(0);
        await expectAccessible(w.page, `the task panel at ${width} px (${words.lang})`);
        await shot(w.page, `${words.lang}-${width}-task-panel`);
        await w.context.close();
      }, 60_000);
    }
  }
});
