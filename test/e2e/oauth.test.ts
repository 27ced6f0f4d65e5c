import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { databases } from '../helpers/app.js';
import { makeUser, PASSWORD } from '../helpers/factories.js';
import { authorizeUrl, formPost, pkce, register, REDIRECT } from '../helpers/oauth.js';
import { browserDescribe, expectAccessible, openPage, shot } from './support/browser.js';
import { useBrowserApp } from './support/session.js';

browserDescribe.each(databases)(
  'OAuth in a real browser: login, consent, and the connection in agent settings (%s)',
  (kind) => {
    const s = useBrowserApp(kind);

    it('signs in on /login, allows on the consent page, then sees and revokes the connection in agent settings', async () => {
      const { page, context } = s.w;
      const person = await makeUser(s.t.url);
      const client = await register(s.t.url, { client_name: 'Inspector <b>bold</b>' });
      const { verifier, challenge } = pkce();
      // Nothing listens on the client's loopback port: the browser's arrival there is the answer.
      await context.route(`${new URL(REDIRECT).origin}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
      );

      await page.goto(authorizeUrl({ client_id: client.body.client_id, resource: `${s.t.url}/mcp`, challenge }));
      await page.getByRole('heading', { name: 'Sign in to Task Tree' }).waitFor();
      await expectAccessible(page, 'oauth login');
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();

      await page.getByRole('heading', { name: 'Connect an app to Task Tree' }).waitFor();
      expect(await page.getByText('Inspector <b>bold</b>').count()).toBe(1);
      expect(await page.locator('b').count()).toBe(0);
      await expectAccessible(page, 'oauth consent');
      await page.getByRole('button', { name: 'Allow' }).click();
      await page.waitForURL(`${REDIRECT}?**`);
      const back = new URL(page.url()).searchParams;
      expect(back.get('state')).toBe('st-123');
      const tokens = await formPost(s.t.url, '/oauth/token', {
        grant_type: 'authorization_code',
        code: back.get('code')!,
        redirect_uri: REDIRECT,
        client_id: client.body.client_id,
        code_verifier: verifier,
        resource: `${s.t.url}/mcp`,
      });
      expect(tokens.status).toBe(200);

      // The /login session is the app's session: agent settings list the connection.
      await page.goto('/agents');
      await page.getByRole('heading', { name: 'OAuth connections' }).waitFor();
      const row = page
        .getByRole('region', { name: 'OAuth connections' })
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'Inspector <b>bold</b>', exact: true }) });
      await row.waitFor();
      expect(await row.textContent()).toContain(`${s.t.url}/mcp`);
      expect(await row.textContent()).toContain('read, attachments');
      await expectAccessible(page, 'agents with a connection');
      await row.getByRole('button', { name: 'Revoke' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
      await page.getByText('No apps connected yet.').waitFor();
      const answer = await fetch(`${s.t.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.body.access_token}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(answer.status).toBe(401);
      expect(s.w.cspViolations).toEqual([]);
      expect(s.w.pageErrors).toEqual([]);
    });

    it('in Russian: the pages wear the app’s built stylesheet and pass axe', async () => {
      const person = await makeUser(s.t.url);
      const client = await register(s.t.url, { client_name: 'Курсор' });
      const w = await openPage(s.browser, s.t.url, 'ru-RU');
      try {
        const { page } = w;
        await page.goto(
          authorizeUrl({
            client_id: client.body.client_id,
            resource: `${s.t.url}/mcp`,
            challenge: pkce().challenge,
            scope: 'read write',
          }),
        );
        await page.getByRole('heading', { name: 'Вход в Task Tree' }).waitFor();
        // The app's own stylesheet, found through Vite's manifest and allowed by style-src 'self'.
        const sheet = await page.locator('link[rel="stylesheet"]').getAttribute('href');
        expect(sheet).toMatch(/^\/assets\/index-[\w-]+\.css$/);
        // A string: the root tsconfig has no DOM types. The app's primary green on the submit button.
        expect(
          await page.evaluate('getComputedStyle(document.querySelector("button[type=submit]")).backgroundColor'),
        ).toBe('rgb(47, 107, 58)');
        await expectAccessible(page, 'oauth login (ru)');
        await shot(page, 'oauth-login-ru');
        await page.getByLabel('Эл. почта').fill(person.email);
        await page.getByLabel('Пароль').fill(PASSWORD);
        await page.getByRole('button', { name: 'Войти' }).click();
        // The account's language is English; the page's switch picks Russian.
        await page.getByRole('heading', { name: 'Connect an app to Task Tree' }).waitFor();
        await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: 'Русский' }).click();
        await page.getByRole('heading', { name: 'Подключение приложения к Task Tree' }).waitFor();
        expect(await page.getByText('Курсор').count()).toBe(1);
        await page.getByText('На тарифе Seed').waitFor();
        await expectAccessible(page, 'oauth consent (ru)');
        await shot(page, 'oauth-consent-ru');
        await page.goto('/oauth/authorize?client_id=oac_unknown');
        await page.getByRole('heading', { name: 'Подключение невозможно' }).waitFor();
        await expectAccessible(page, 'oauth error page (ru)');
        expect(w.cspViolations).toEqual([]);
        expect(w.pageErrors).toEqual([]);
      } finally {
        await w.context.close();
      }
    });

    it('with JavaScript off: signs in and allows by plain form posts', async () => {
      const person = await makeUser(s.t.url);
      const client = await register(s.t.url);
      const { verifier, challenge } = pkce();
      const w = await openPage(s.browser, s.t.url, 'ru-RU', { javaScript: false });
      try {
        const { page, context } = w;
        await context.route(`${new URL(REDIRECT).origin}/**`, (route) =>
          route.fulfill({ status: 200, contentType: 'text/plain', body: 'back at the client' }),
        );
        await page.goto(
          authorizeUrl({ client_id: client.body.client_id, resource: `${s.t.url}/api/v1`, challenge, state: 'no-js' }),
        );
        await page.getByLabel('Эл. почта').fill(person.email);
        await page.getByLabel('Пароль').fill(PASSWORD);
        await page.getByRole('button', { name: 'Войти' }).click();
        await page.getByRole('heading', { name: 'Connect an app to Task Tree' }).waitFor();
        await page.getByRole('button', { name: 'Allow' }).click();
        await page.waitForURL(`${REDIRECT}?**`);
        const back = new URL(page.url()).searchParams;
        expect(back.get('state')).toBe('no-js');
        const tokens = await formPost(s.t.url, '/oauth/token', {
          grant_type: 'authorization_code',
          code: back.get('code')!,
          redirect_uri: REDIRECT,
          client_id: client.body.client_id,
          code_verifier: verifier,
          resource: `${s.t.url}/api/v1`,
        });
        expect(tokens.status).toBe(200);
      } finally {
        await w.context.close();
      }
    });

    it('refuses to draw the consent page inside a frame', async () => {
      const { page } = s.w;
      const client = await register(s.t.url);
      const consentUrl = `${s.t.url}${authorizeUrl({ client_id: client.body.client_id, resource: `${s.t.url}/mcp`, challenge: pkce().challenge })}`;
      // A hostile page on another origin, served by a real socket (Chromium blocks a routed "public" page from framing loopback).
      const hostile = createServer((_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe src="${consentUrl}"></iframe>`),
      );
      await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
      try {
        await page.goto(`http://localhost:${(hostile.address() as AddressInfo).port}/`);
        await page.waitForTimeout(1000);
        const frame = page.frames().find((f) => f !== page.mainFrame());
        const framedText =
          frame === undefined
            ? ''
            : ((await frame.evaluate('document.body ? document.body.innerText : ""').catch(() => '')) as string);
        // Framed, the page would show at least its sign-in form (no third-party cookie); refused, nothing of ours.
        expect(framedText).not.toContain('Task Tree');
      } finally {
        hostile.close();
      }
    });
  },
);
