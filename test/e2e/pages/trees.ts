import type { Locator, Page } from 'playwright-core';
import { TreePage } from './tree.js';

export type Style = 'Tidy fan' | 'Space colonization' | 'L-system';

/** The trees list: New tree, Edit (rename, restyle) and Delete with confirmation. */
export class TreesPage {
  readonly heading: Locator;
  readonly newTree: Locator;
  readonly dialog: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1 });
    this.newTree = page.getByRole('button', { name: 'New tree' });
    this.dialog = page.getByRole('dialog');
  }
  static async open(page: Page): Promise<TreesPage> {
    await page.goto('/trees');
    return new TreesPage(page);
  }
  row(name: string): Locator {
    return this.page.getByRole('listitem').filter({ has: this.page.getByRole('link', { name, exact: true }) });
  }
  async create(name: string, style: Style = 'Tidy fan'): Promise<void> {
    await this.newTree.click();
    await this.dialog.getByLabel('Name').fill(name);
    await this.dialog.getByLabel('Style').selectOption({ label: style });
    await this.dialog.getByRole('button', { name: 'Save' }).click();
    await this.row(name).waitFor();
  }
  async edit(name: string, next: { name?: string; style?: Style }): Promise<void> {
    await this.row(name).getByRole('button', { name: 'Edit' }).click();
    if (next.name !== undefined) await this.dialog.getByLabel('Name').fill(next.name);
    if (next.style !== undefined) await this.dialog.getByLabel('Style').selectOption({ label: next.style });
    await this.dialog.getByRole('button', { name: 'Save' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
  async remove(name: string): Promise<void> {
    await this.row(name).getByRole('button', { name: 'Delete' }).click();
    await this.dialog.getByRole('button', { name: 'Delete' }).click();
    await this.row(name).waitFor({ state: 'detached' });
  }
  async open(name: string): Promise<TreePage> {
    await this.page.getByRole('link', { name, exact: true }).click();
    const tree = new TreePage(this.page);
    await tree.drawing.waitFor();
    return tree;
  }
}
