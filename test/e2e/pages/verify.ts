import type { Locator, Page } from 'playwright-core';

/** The banner under the top bar while the email is not verified: its button mails a verification link. */
export class VerifyBanner {
  readonly root: Locator;
  readonly send: Locator;
  constructor(readonly page: Page) {
    this.root = page.getByRole('region', { name: 'Address verification' });
    this.send = this.root.getByRole('button', { name: 'Verify my email' });
  }
  /** Asks for the mail and returns what the banner then says. */
  async request(): Promise<string> {
    await this.send.click();
    const status = this.root.getByRole('status');
    await status.waitFor();
    return (await status.textContent()) ?? '';
  }
}

/** `/invite?token=…&id=…`: the invitation's one-time link, accepted with one button. */
export class InvitePage {
  readonly heading: Locator;
  readonly accept: Locator;
  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Join a shared tree' });
    this.accept = page.getByRole('main').getByRole('button', { name: 'Accept invitation' });
  }
  /** Accepts and waits for the answer: the "joined" note, or the error note. */
  async acceptInvitation(): Promise<string> {
    await this.accept.click();
    const answer = this.page.getByRole('main').locator('[role=status], [role=alert]').first();
    await answer.waitFor();
    return (await answer.textContent()) ?? '';
  }
}

/** Path and query of a link the service built from its PUBLIC_URL (the test server listens on a port of its own). */
export function localPath(link: string): string {
  const url = new URL(link);
  return url.pathname + url.search;
}
