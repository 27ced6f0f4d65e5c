import { createHash, randomBytes } from 'node:crypto';
import type { Client } from './client.js';

/** What an OAuth client holds for one authorization: the PKCE pair (S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export const REDIRECT = 'http://127.0.0.1:43210/callback';

export async function register(baseUrl: string, doc: Record<string, unknown> = {}) {
  const response = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Test agent', redirect_uris: [REDIRECT], ...doc }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

/** A form post to /oauth/token or /oauth/revoke, as a public client sends it. */
export async function formPost(baseUrl: string, path: string, form: Record<string, string>) {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

/** One browser request that does not follow redirects, with the browser's cookies. */
export async function browserFetch(
  browser: Client,
  url: string,
  init: { method?: string; form?: Record<string, string> | [string, string][]; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = { ...init.headers };
  if (browser.cookies.size > 0) headers.cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  if (init.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  const target = url.startsWith('http') ? url : browser.baseUrl + url;
  const response = await fetch(target, {
    method: init.method ?? 'GET',
    headers,
    redirect: 'manual',
    body: init.form === undefined ? undefined : new URLSearchParams(init.form),
  });
  for (const cookie of response.headers.getSetCookie()) {
    const [pair] = cookie.split(';');
    const eq = pair!.indexOf('=');
    browser.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
  }
  return {
    status: response.status,
    headers: response.headers,
    text: await response.text(),
    location: response.headers.get('location'),
  };
}

function unescape(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The hidden fields of a server-rendered form, as a browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g))
    fields[unescape(match[1]!)] = unescape(match[2]!);
  return fields;
}

export interface AuthorizeParams {
  client_id: string;
  resource: string;
  challenge: string;
  redirect_uri?: string;
  scope?: string;
  state?: string;
}

export function authorizeUrl(params: AuthorizeParams, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: params.client_id,
    redirect_uri: params.redirect_uri ?? REDIRECT,
    code_challenge: params.challenge,
    code_challenge_method: 'S256',
    state: params.state ?? 'st-123',
    resource: params.resource,
    ...(params.scope !== undefined ? { scope: params.scope } : {}),
    ...extra,
  });
  return `/oauth/authorize?${query.toString()}`;
}

/** The consent form's choice of trees (CONTRACT §16.1): "Chosen trees" with these ticked; none: "All trees". */
export function treeChoice(trees: string[] | undefined): [string, string][] {
  return trees === undefined ? [] : [['trees', 'chosen'], ...trees.map((id): [string, string] => ['tree_id', id])];
}

/**
 * A signed-in browser reads the consent page and approves it; returns the redirect's parameters.
 * `trees`: tick "Chosen trees" and these trees' boxes (else the page's default, All trees).
 */
export async function consent(
  browser: Client,
  params: AuthorizeParams,
  decision: 'approve' | 'deny' = 'approve',
  trees?: string[],
) {
  const page = await browserFetch(browser, authorizeUrl(params));
  if (page.status !== 200) throw new Error(`consent page: ${page.status} ${page.location ?? page.text}`);
  const answer = await browserFetch(browser, '/oauth/authorize', {
    method: 'POST',
    form: [...Object.entries(hiddenFields(page.text)), ['decision', decision], ...treeChoice(trees)],
  });
  if (answer.status !== 303 || answer.location === null)
    throw new Error(`consent post: ${answer.status} ${answer.text}`);
  return new URL(answer.location).searchParams;
}

/** Registration, consent and code exchange: a connection's first token pair. */
export async function connect(
  baseUrl: string,
  browser: Client,
  resource: string,
  options: { scope?: string; clientName?: string; trees?: string[] } = {},
) {
  const client = await register(baseUrl, options.clientName !== undefined ? { client_name: options.clientName } : {});
  const { verifier, challenge } = pkce();
  const redirect = await consent(
    browser,
    { client_id: client.body.client_id, resource, challenge, scope: options.scope },
    'approve',
    options.trees,
  );
  const tokens = await formPost(baseUrl, '/oauth/token', {
    grant_type: 'authorization_code',
    code: redirect.get('code')!,
    redirect_uri: REDIRECT,
    client_id: client.body.client_id,
    code_verifier: verifier,
    resource,
  });
  if (tokens.status !== 200) throw new Error(`token: ${tokens.status} ${JSON.stringify(tokens.body)}`);
  return {
    clientId: client.body.client_id as string,
    tokens: tokens.body as { access_token: string; refresh_token: string; scope: string; expires_in: number },
  };
}
