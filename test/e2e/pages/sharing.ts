import type { Locator, Page } from 'playwright-core';

/** A tree's sharing page: the invite form (Email, Role, Access ends), the members table, Revoke with confirmation. */
export class SharingPage {
  readonly invite: Locator;
  readonly members: Locator;
  readonly dialog: Locator;
  constructor(readonly page: Page) {
    this.invite = page.getByRole('main').locator('form');
    this.members = page.getByRole('main').getByRole('table');
    this.dialog = page.getByRole('dialog');
  }
  static async open(page: Page, treeId: string): Promise<SharingPage> {
    await page.goto(`/trees/${treeId}/sharing`);
    await page.getByRole('heading', { level: 1, name: /^Sharing/ }).waitFor();
    return new SharingPage(page);
  }
  /** A member's row, found by the invited email (shown beside their name once they have one). */
  row(email: string): Locator {
    return this.members.getByRole('row').filter({ hasText: email });
  }
  async inviteAs(email: string, role: 'Viewer' | 'Editor', endsAt?: string): Promise<void> {
    await this.invite.getByLabel('Email').fill(email);
    await this.invite.getByLabel('Role').selectOption({ label: role });
    if (endsAt !== undefined) await this.invite.getByLabel('Access ends (optional)').fill(endsAt);
    await this.invite.getByRole('button', { name: 'Invite' }).click();
    await this.page.getByText(`${email} is invited.`).waitFor();
  }
  /** The invitation link shown once after the last invite, checked to come with its copy button. */
  async inviteLink(): Promise<string> {
    const shown = this.invite.getByRole('status');
    await shown.getByRole('button', { name: 'Copy' }).waitFor();
    return (await shown.locator('[data-invite-url]').textContent()) ?? '';
  }
  async changeRole(email: string, role: 'Viewer' | 'Editor'): Promise<void> {
    await this.row(email)
      .getByRole('combobox', { name: `Role of ${email}` })
      .selectOption({ label: role });
  }
  async revoke(email: string): Promise<void> {
    await this.row(email).getByRole('button', { name: 'Revoke' }).click();
    await this.dialog.getByRole('button', { name: 'Revoke' }).click();
    await this.row(email).getByText('Revoked').waitFor();
  }
}

/** The invitations card above the trees list. */
export class InvitationsCard {
  readonly root: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Invitations' });
  }
  item(treeName: string): Locator {
    return this.root.getByRole('listitem').filter({ hasText: `“${treeName}”` });
  }
  async accept(treeName: string): Promise<void> {
    await this.item(treeName).getByRole('button', { name: 'Accept' }).click();
    await this.root.getByText(`You joined “${treeName}”.`).waitFor();
  }
}
