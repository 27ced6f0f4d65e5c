import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestApp } from '../helpers/app.js';
import { Client } from '../helpers/client.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { makeUser, PASSWORD, type Person } from '../helpers/factories.js';
import { authorizeUrl, browserFetch, hiddenFields, pkce, register } from '../helpers/oauth.js';

/** return_to values no page of ours sends: control characters and characters beyond Latin-1, as raw bytes. */
const MALFORMED: [string, Buffer][] = [
  ['CR LF', Buffer.from('/oauth/authorize?x=\r\nSet-Cookie: a=b')],
  ['NUL', Buffer.from('/oauth/authorize?x=\0')],
  ['DEL', Buffer.from('/oauth/authorize?x=\x7f')],
  ['U+0101', Buffer.from('/oauth/authorize?x=ā')],
  ['U+2028', Buffer.from('/oauth/authorize?x=\u2028')],
  ['an emoji', Buffer.from('/oauth/authorize?x=🌳')],
  ['invalid UTF-8', Buffer.concat([Buffer.from('/oauth/authorize?x='), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80])])],
];

/** Each byte percent-encoded, as a browser puts a value into a URL or a form. */
function percentEncoded(bytes: Buffer): string {
  return [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`).join('');
}

async function send(baseUrl: string, head: string, body: Buffer = Buffer.alloc(0)): Promise<RawAnswer> {
  const exchange = await rawRequest(baseUrl, Buffer.concat([Buffer.from(head, 'latin1'), body]));
  const answer = await exchange.answer(5_000);
  exchange.socket.destroy();
  return answer;
}

function expectBadReturnPage(answer: RawAnswer, what: string): void {
  expect(answer.status, what).toBe(400);
  expect(answer.headers['content-type'], what).toBe('text/html; charset=utf-8');
  expect(answer.text, what).toContain('(return_to)');
  expect(answer.headers.location, what).toBeUndefined();
}

describe.each(databases)('server-rendered pages and a malformed return_to (%s)', (kind) => {
  let t: Awaited<ReturnType<typeof startTestApp>>;
  let person: Person;
  let cookie: string;
  beforeAll(async () => {
    t = await startTestApp(kind);
    person = await makeUser(t.url);
    cookie = `tt_session=${person.browser.cookies.get('tt_session')}`;
  });
  afterAll(async () => t.stop());

  it('answers GET /login with its 400 page, signed in or not', async () => {
    // Percent-encoded invalid UTF-8 stays as its ASCII text in the query (well-formed): it is left out.
    for (const [name, bytes] of MALFORMED.filter(([name]) => name !== 'invalid UTF-8')) {
      for (const session of ['', `Cookie: ${cookie}\r\n`]) {
        const answer = await send(
          t.url,
          `GET /login?return_to=${percentEncoded(bytes)}&lang=en HTTP/1.1\r\nHost: x\r\n${session}Connection: close\r\n\r\n`,
        );
        expectBadReturnPage(answer, `${name}${session === '' ? '' : ', signed in'}`);
      }
    }
  });

  it('answers POST /login with its 400 page, raw bytes in the form included, and signs no one in', async () => {
    const visitor = new Client(t.url);
    const page = await browserFetch(visitor, '/login');
    const session = `tt_session=${visitor.cookies.get('tt_session')}`;
    const { return_to: _, ...hidden } = hiddenFields(page.text);
    const fields = new URLSearchParams({ ...hidden, email: person.email, password: PASSWORD }).toString();
    for (const [name, bytes] of MALFORMED) {
      for (const value of [bytes, Buffer.from(percentEncoded(bytes))]) {
        const body = Buffer.concat([Buffer.from(`${fields}&return_to=`), value]);
        const answer = await send(
          t.url,
          `POST /login HTTP/1.1\r\nHost: x\r\nCookie: ${session}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`,
          body,
        );
        expectBadReturnPage(answer, name);
        expect(answer.headers['set-cookie'], name).toBeUndefined();
      }
    }
    expect((await visitor.get('/api/v1/auth/me')).body.user).toBeNull();
  });

  it('refuses raw control bytes and bytes beyond ASCII in the request line with 400 before any page runs', async () => {
    // A raw CR LF would end the request line: what follows is a header, not a return_to.
    for (const [name, bytes] of MALFORMED.filter(([name]) => name !== 'CR LF')) {
      const answer = await send(
        t.url,
        `GET /login?return_to=${bytes.toString('latin1')} HTTP/1.1\r\nHost: x\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status, name).toBe(400);
    }
  });

  it('still sends a well-formed return_to back into the authorization flow', async () => {
    const client = await register(t.url);
    const url = authorizeUrl({
      client_id: client.body.client_id,
      resource: `${t.url}/mcp`,
      challenge: pkce().challenge,
    });
    const back = await browserFetch(person.browser, `/login?return_to=${encodeURIComponent(url)}`);
    expect(back.status).toBe(302);
    expect(back.location).toBe(url);
  });

  it('never answers 500 to the consent page’s parameters holding the same characters', async () => {
    const client = await register(t.url);
    const params = { client_id: client.body.client_id, resource: `${t.url}/mcp`, challenge: pkce().challenge };
    const consent = await browserFetch(person.browser, authorizeUrl(params));
    const fields = hiddenFields(consent.text);
    for (const [name, bytes] of MALFORMED) {
      const value = bytes.toString('utf8');
      for (const field of ['state', 'scope', 'resource', 'redirect_uri', 'code_challenge', 'lang']) {
        const page = await browserFetch(person.browser, authorizeUrl(params, { [field]: value }));
        expect(page.status, `GET ${field} ${name}`).toBeLessThan(500);
        const decided = await browserFetch(person.browser, '/oauth/authorize', {
          method: 'POST',
          form: { ...fields, [field]: value, decision: 'deny' },
        });
        expect(decided.status, `POST ${field} ${name}`).toBeLessThan(500);
      }
    }
  });
});
