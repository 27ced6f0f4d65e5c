import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { databases, startTestApp } from '../helpers/app.js';
import { ensureWebBuilt } from '../helpers/web-build.js';
import { makeUser, type Person } from '../helpers/factories.js';
import { makeProject, makeTask, makeTree } from '../helpers/data.js';
import { localDay, nextDay } from '../../src/domain/zoned-day.js';
import { browserDescribe, expectAccessible, launch, openPage, shot, sidewaysOverflow } from './support/browser.js';
import { TreePage } from './pages/tree.js';

/**
 * The app for daily use (CONTRACT §18): Upcoming groups what is due by the person's own days,
 * the trees page draws each tree small with its counts, a tree's drawing zooms from the keyboard
 * and marks overdue tasks (in words too), and a search narrows the list view.
 */

const WORDS = {
  en: {
    locale: 'en-US',
    groups: ['Overdue', 'Today', 'Next 7 days', 'Later'],
    mine: 'Assigned to me',
    overdue: 'Overdue',
    zoom: /Zoom the drawing/,
    showAll: 'Show the whole tree',
    search: 'Search tasks',
    counts: '4 open · 1 done',
  },
  ru: {
    locale: 'ru-RU',
    groups: ['Просрочено', 'Сегодня', 'Следующие 7 дней', 'Позже'],
    mine: 'Назначенные мне',
    overdue: 'Просрочено',
    zoom: /Масштаб рисунка/,
    showAll: 'Показать всё дерево',
    search: 'Поиск задач',
    counts: 'открыто: 4 · сделано: 1',
  },
} as const;

const plus = (day: string, n: number) => {
  let out = day;
  for (let i = 0; i < n; i++) out = nextDay(out);
  return out;
};
const minus = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

/** Which group a day falls in, read independently of the app: the days of CONTRACT §18. */
function groupOf(day: string, today: string): number {
  if (day < today) return 0;
  if (day === today) return 1;
  return day <= plus(today, 7) ? 2 : 3;
}

interface Seeded {
  person: Person;
  home: string;
  work: string;
  /** title → deadline (the open tasks Upcoming shows). */
  due: Record<string, string>;
  assigned: string;
}

/** Deadlines around Kiritimati's today, in a tree "Home" (project Garden) and a tree "Work". */
async function seed(url: string, app: Parameters<typeof makeUser>[1], language: 'en' | 'ru'): Promise<Seeded> {
  const person = await makeUser(url, app, { plan: 'grove', verified: true });
  const api = person.browser;
  expect((await api.patch('/api/v1/auth/profile', { language, timezone: 'Pacific/Kiritimati' })).status).toBe(200);
  const today = localDay(Date.now(), 'Pacific/Kiritimati');
  const home = (await makeTree(api, { name: 'Home' })).id as string;
  const work = (await makeTree(api, { name: 'Work', style: 'lsystem' })).id as string;
  const garden = (await makeProject(api, home, { name: 'Garden' })).id as string;
  const due: Record<string, string> = {
    'Water the tomatoes': minus(today, 2),
    'Pay the bill': today,
    'Call the plumber': plus(today, 1),
    'Book the dentist': plus(today, 7),
    'Renew the passport': plus(today, 8),
    'Send the report': new Date(Date.now() + 30 * 3_600_000).toISOString().slice(0, 19) + 'Z',
  };
  for (const [title, deadline] of Object.entries(due)) {
    const inHome = title === 'Water the tomatoes' || title === 'Pay the bill' || title === 'Call the plumber';
    await makeTask(api, inHome ? home : work, {
      title,
      deadline,
      ...(title === 'Water the tomatoes' ? { project_id: garden } : {}),
    });
  }
  // Not due: done, deferred, without a deadline.
  await makeTask(api, home, { title: 'Sweep the yard', deadline: minus(today, 1), status: 'done' });
  await makeTask(api, work, { title: 'Clean the desk', deadline: today, status: 'deferred' });
  await makeTask(api, home, { title: 'Mend the gate', project_id: garden });
  const tasks = (await api.get(`/api/v1/tasks?tree_id=${work}`)).body.items as { id: string; title: string }[];
  const assigned = 'Book the dentist';
  const task = tasks.find((x) => x.title === assigned)!;
  expect((await api.put(`/api/v1/tasks/${task.id}/assignees`, { user_ids: [person.user.id] })).status).toBe(200);
  return { person, home, work, due, assigned };
}

async function settle(page: Page): Promise<void> {
  await page.getByRole('main').getByRole('heading').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** The titles under each group heading, in the page's order. */
async function groupsShown(page: Page): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const region of await page.getByRole('main').locator('section.due-group').all()) {
    const heading = (await region.getByRole('heading').textContent())!.replace(/\s*\(\d+\)\s*$/, '');
    out[heading] = await region.locator('.due-title').allTextContents();
  }
  return out;
}

browserDescribe.each(databases)('the app for daily use (%s)', (kind) => {
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

  for (const language of ['en', 'ru'] as const) {
    const words = WORDS[language];

    it(`groups what is due by the person's own days in two time zones, ${language}`, async () => {
      const seeded = await seed(state.t.url, state.t.app, language);
      const w = await openPage(state.browser, state.t.url, words.locale);
      await w.context.addCookies([
        { name: 'tt_session', value: seeded.person.browser.cookies.get('tt_session')!, url: state.t.url },
      ]);
      for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
        expect((await seeded.person.browser.patch('/api/v1/auth/profile', { timezone: zone })).status).toBe(200);
        const today = localDay(Date.now(), zone);
        const expected: Record<string, string[]> = {};
        // Soonest first in the person's days: a date is its whole day, before the timed deadlines of that day.
        const dayOf = (deadline: string) => (deadline.length === 10 ? deadline : localDay(Date.parse(deadline), zone));
        const when = (deadline: string) => `${dayOf(deadline)} ${deadline.length === 10 ? '' : deadline}`;
        const byDeadline = Object.entries(seeded.due).sort((a, b) => (when(a[1]) < when(b[1]) ? -1 : 1));
        for (const [title, deadline] of byDeadline)
          (expected[words.groups[groupOf(dayOf(deadline), today)]!] ??= []).push(title);
        await w.page.goto('/upcoming');
        await settle(w.page);
        await w.page.locator('section.due-group').first().waitFor();
        const shown = await groupsShown(w.page);
        expect(shown, zone).toEqual(expected);
        // Groups in the contract's order.
        expect(Object.keys(shown)).toEqual(words.groups.filter((g) => expected[g] !== undefined));
        await expectAccessible(w.page, `upcoming in ${zone} (${language})`);
        await shot(w.page, `daily-${language}-1280-upcoming-${zone.split('/')[1]}`, { fullPage: true });
      }
      // Each row names its tree and project, and opens the task panel in place.
      const row = w.page.locator('.due-row', { hasText: 'Water the tomatoes' });
      expect(await row.locator('.due-where').textContent()).toBe('Home › Garden');
      await row.getByRole('button').click();
      const panel = w.page.getByRole('complementary');
      await panel.waitFor();
      expect(await panel.getByRole('textbox').first().inputValue()).toBe('Water the tomatoes');
      expect(new URL(w.page.url()).pathname).toBe('/upcoming');
      await expectAccessible(w.page, `upcoming with the panel (${language})`);
      await w.page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      // Assigned to me, off by default.
      const mine = w.page.getByRole('switch', { name: words.mine });
      expect(await mine.isChecked()).toBe(false);
      await mine.check();
      await expect.poll(async () => Object.values(await groupsShown(w.page)).flat()).toEqual([seeded.assigned]);
      await w.context.close();
    }, 90_000);

    it(`shows each tree small with its counts, zooms a tree from the keyboard, marks overdue tasks and narrows the list by a search, ${language}`, async () => {
      const seeded = await seed(state.t.url, state.t.app, language);
      const w = await openPage(state.browser, state.t.url, words.locale);
      await w.context.addCookies([
        { name: 'tt_session', value: seeded.person.browser.cookies.get('tt_session')!, url: state.t.url },
      ]);
      await w.page.goto('/trees');
      await settle(w.page);
      const cards = w.page.locator('.tree-card');
      await expect.poll(() => cards.count()).toBe(2);
      // Each card draws its tree's own shape: a leaf per task, and the very picture its page draws.
      const home = cards.filter({ hasText: 'Home' });
      const homeTasks = (await seeded.person.browser.get(`/api/v1/tasks?tree_id=${seeded.home}`)).body.items;
      await expect.poll(() => home.locator('.tree-thumb').getAttribute('data-leaves')).toBe(String(homeTasks.length));
      expect(await home.locator('.tree-thumb').getAttribute('data-projects')).toBe('1');
      const work = cards.filter({ hasText: 'Work' });
      await expect.poll(() => work.locator('.tree-thumb').getAttribute('data-leaves')).toBe('4');
      const paths = (where: ReturnType<Page['locator']>) =>
        where
          .locator('.tree-branches path, .tree-leaves path')
          .evaluateAll((nodes) => nodes.map((n) => n.getAttribute('d')));
      const cardPicture = await paths(home.locator('.tree-thumb'));
      expect(cardPicture.length).toBeGreaterThan(3);
      expect(await home.locator('.tree-card-counts').textContent()).toBe(words.counts);
      await expectAccessible(w.page, `trees with drawings (${language})`);
      await shot(w.page, `daily-${language}-1280-trees`, { fullPage: true });

      await w.page.goto(`/trees/${seeded.home}`);
      await settle(w.page);
      const tree = new TreePage(w.page);
      await tree.drawing.waitFor();
      expect(await paths(tree.drawing)).toEqual(cardPicture);
      const viewBox = () => tree.drawing.getAttribute('viewBox');
      const width = async () => Number((await viewBox())!.split(' ')[2]);
      await expect.poll(width).toBeGreaterThan(0);
      const fit = await viewBox();
      const zoom = w.page.getByRole('group', { name: words.zoom });
      await zoom.focus();
      await w.page.keyboard.press('+');
      await expect.poll(width).toBeLessThan(Number(fit!.split(' ')[2]) * 0.8);
      const zoomed = await width();
      await w.page.keyboard.press('+');
      await expect.poll(width).toBeLessThan(zoomed * 0.8);
      await w.page.keyboard.press('-');
      await expect.poll(width).toBeCloseTo(zoomed, 0);
      await w.page.keyboard.press('0');
      await expect.poll(viewBox).toBe(fit);

      // Overdue: a dashed ring in the drawing, the word in the leaf's name and in the list's row.
      const overdueRow = tree.row('Water the tomatoes');
      expect(await overdueRow.getByText(words.overdue, { exact: true }).count()).toBe(1);
      expect(await tree.row('Pay the bill').getByText(words.overdue, { exact: true }).count()).toBe(0);
      const tomatoes = (await seeded.person.browser.get(`/api/v1/tasks?tree_id=${seeded.home}`)).body.items.find(
        (x: { title: string }) => x.title === 'Water the tomatoes',
      );
      expect(await tree.leaf(tomatoes.id).locator('title').textContent()).toMatch(
        language === 'en' ? /, overdue$/ : /, просрочено$/,
      );
      expect(await tree.drawing.locator('.tree-overdue-ring').count()).toBe(1);
      // A project's name shows on keyboard focus.
      const knot = tree.drawing.locator('[data-project-id]').first();
      await knot.focus();
      expect(await knot.locator('.tree-project-name').isVisible()).toBe(true);
      await expectAccessible(w.page, `a tree with overdue tasks (${language})`);
      await shot(w.page, `daily-${language}-1280-tree`, { fullPage: true });

      // A search narrows the list view to its matches; a button brings the whole tree back.
      await w.page.getByRole('searchbox').fill('plumber');
      await w.page.getByRole('search').getByRole('button', { name: words.search }).click();
      await expect.poll(() => tree.listView.locator('.outline-task').allTextContents()).toHaveLength(1);
      expect(await tree.listView.locator('.outline-title').allTextContents()).toEqual(['Call the plumber']);
      await expectAccessible(w.page, `a narrowed list (${language})`);
      await shot(w.page, `daily-${language}-1280-tree-search`, { fullPage: true });
      await w.page.getByRole('button', { name: words.showAll }).click();
      await expect.poll(() => tree.listView.locator('.outline-task').count()).toBe(5);
      expect(await w.page.getByRole('searchbox').inputValue()).toBe('');
      await w.context.close();
    }, 90_000);

    it(`opens a tree on a phone with leaves big enough to tap and nothing scrolling sideways, ${language}`, async () => {
      const seeded = await seed(state.t.url, state.t.app, language);
      // Enough leaves that the whole tree at 390 px would make them smaller than a finger.
      const many = Array.from({ length: 80 }, (_, i) => `Chore ${i + 1}`);
      const imported = await seeded.person.browser.request('POST', `/api/v1/trees/${seeded.home}/import`, {
        raw: `title\n${many.join('\n')}\n`,
        contentType: 'text/csv',
      });
      expect(imported.status).toBe(201);
      const w = await openPage(state.browser, state.t.url, words.locale, { phone: true });
      await w.context.addCookies([
        { name: 'tt_session', value: seeded.person.browser.cookies.get('tt_session')!, url: state.t.url },
      ]);
      for (const [name, path] of [
        ['upcoming', '/upcoming'],
        ['trees', '/trees'],
        ['tree', `/trees/${seeded.home}`],
      ] as const) {
        await w.page.goto(path);
        await settle(w.page);
        expect(await sidewaysOverflow(w.page), name).toBe(0);
        await expectAccessible(w.page, `${name} at 390 px (${language})`);
        await shot(w.page, `daily-${language}-390-${name}`, { fullPage: true });
      }
      const tree = new TreePage(w.page);
      await expect.poll(() => tree.leaves().count()).toBe(85);
      const sizes = await tree
        .leaves()
        .evaluateAll((nodes) =>
          nodes.map(
            (n) => (n as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect().width,
          ),
        );
      expect(sizes.length).toBe(85);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(24);
      await w.context.close();
    }, 90_000);
  }
});
