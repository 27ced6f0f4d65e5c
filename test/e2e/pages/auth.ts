import type { Locator, Page } from 'playwright-core';
import { TreesPage } from './trees.js';

/** Create account: fields Name, Email, Password; button Create account. */
export class RegisterPage {
  readonly name: Locator;
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  constructor(readonly page: Page) {
    this.name = page.getByLabel('Name');
    this.email = page.getByLabel('Email');
    this.password = page.getByLabel('Password');
    this.submit = page.getByRole('button', { name: 'Create account' });
  }
  static async open(page: Page): Promise<RegisterPage> {
    await page.goto('/register');
    return new RegisterPage(page);
  }
  async register(name: string, email: string, password: string): Promise<TreesPage> {
    await this.name.fill(name);
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
    await this.page.waitForURL(/\/trees/);
    return new TreesPage(this.page);
  }
}

export class SignInPage {
  readonly email: Locator;
  readonly password: Locator;
  readonly submit: Locator;
  constructor(readonly page: Page) {
    this.email = page.getByLabel('Email');
    this.password = page.getByLabel('Password');
    this.submit = page.getByRole('main').getByRole('button', { name: 'Sign in' });
  }
  static async open(page: Page): Promise<SignInPage> {
    await page.goto('/signin');
    return new SignInPage(page);
  }
  async signIn(email: string, password: string): Promise<TreesPage> {
    await this.email.fill(email);
    await this.password.fill(password);
    await this.submit.click();
    await this.page.waitForURL(/\/trees/);
    return new TreesPage(this.page);
  }
}
