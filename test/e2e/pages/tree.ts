import type { Locator, Page } from 'playwright-core';

/** A tree: the drawing (test ids only inside the SVG), the list view, New project/task, search, the task panel. */
export class TreePage {
  readonly drawing: Locator;
  readonly dialog: Locator;
  readonly panel: Locator;
  readonly listView: Locator;
  constructor(readonly page: Page) {
    this.drawing = page.getByRole('img', { name: /Drawing of the tree|Рисунок дерева/ });
    this.dialog = page.getByRole('dialog');
    this.panel = page.getByRole('complementary');
    this.listView = page.locator('.outline');
  }
  leaf(taskId: string): Locator {
    return this.drawing.locator(`[data-task-id="${taskId}"]`);
  }
  leaves(): Locator {
    return this.drawing.locator('[data-task-id]');
  }
  async newProject(name: string, parent?: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New project' }).click();
    await this.dialog.getByLabel('Name').fill(name);
    if (parent !== undefined) await this.dialog.getByLabel('Inside project').selectOption({ label: parent });
    await this.dialog.getByRole('button', { name: 'Save' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
  async newTask(title: string, project?: string): Promise<void> {
    await this.page.getByRole('button', { name: 'New task' }).click();
    await this.dialog.getByLabel('Title').fill(title);
    if (project !== undefined) await this.dialog.getByLabel('Project').selectOption({ label: project });
    await this.dialog.getByRole('button', { name: 'Save' }).click();
    await this.dialog.waitFor({ state: 'detached' });
  }
  /** Opens a task from the list view: a button named by its title. */
  async openTask(title: string): Promise<TaskPanel> {
    await this.listView.getByRole('button', { name: title }).click();
    const panel = new TaskPanel(this.page);
    await panel.root.waitFor();
    return panel;
  }
  async search(q: string): Promise<void> {
    await this.page.getByRole('searchbox').fill(q);
    await this.page.getByRole('search').getByRole('button', { name: 'Search tasks' }).click();
  }
  /** A task's row in the list view: its Done box and the button that opens it. */
  row(title: string): Locator {
    return this.listView.locator('.outline-task-row').filter({ has: this.page.getByRole('button', { name: title }) });
  }
  /** A project's name in the list view, which opens its editor. */
  projectName(name: string): Locator {
    return this.listView.getByRole('button', { name, exact: true });
  }
  project(projectId: string): Locator {
    return this.drawing.locator(`[data-project-id="${projectId}"]`);
  }
  async setStyle(label: string): Promise<void> {
    await this.page.getByRole('main').getByLabel('Style').first().selectOption({ label });
  }
}

export class TaskPanel {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('complementary');
  }
  field(label: string): Locator {
    return this.root.getByLabel(label, { exact: true });
  }
  async save(): Promise<void> {
    await this.root.getByRole('button', { name: 'Save' }).click();
  }
  /** The dialog a save opens when someone else saved the task meanwhile (CONTRACT §16.4). */
  get conflict(): Locator {
    return this.page.getByRole('dialog', { name: 'Changed while you were editing' });
  }
  /** A field's row in the conflict dialog: their value and the person's. */
  conflictRow(field: string): { theirs: Locator; mine: Locator } {
    const row = this.conflict.locator(`[data-field="${field}"]`);
    return {
      theirs: row.locator('.conflict-theirs .conflict-value'),
      mine: row.locator('.conflict-mine .conflict-value'),
    };
  }
  async upload(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    await this.root.getByLabel('Upload a file').setInputFiles({ name, mimeType, buffer });
  }
}
