import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { verifyLogin } from '../../domain/accounts/accounts.js';
import { checkCsrf, endSession, startSession } from '../../domain/accounts/sessions.js';
import { DomainError } from '../../domain/errors.js';
import { setSessionCookie } from '../session-cookie.js';
import { browserSession } from './browser-session.js';
import { errorPage, loginPage } from './pages.js';
import { pageText } from './text.js';
import { chosenLanguage, withLanguage } from './language.js';
import { frameFor } from './frame.js';

const hidden = { hide: true };

/** Only back into the authorization flow: anything else would make /login an open redirect. */
function safeReturn(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/oauth/authorize?') ? value : '/';
}

/** The server-rendered sign-in form of the OAuth flow; it works without JavaScript. */
export function loginRoutes(deps: Deps, app: FastifyInstance, stylesheets: readonly string[]): void {
  app.get('/login', { schema: hidden }, async (request, reply) => {
    const session = await browserSession(deps, request, reply);
    const returnTo = safeReturn((request.query as Record<string, unknown>).return_to);
    if (session.user !== null && returnTo !== '/') return reply.redirect(returnTo, 302);
    const frame = frameFor(request, stylesheets, session.user?.language ?? null);
    return loginPage(reply, 200, frame, { csrf: session.csrf, returnTo, email: '', error: null, chosen: chosenLanguage(request) });
  });

  app.post('/login', { schema: hidden }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const session = await browserSession(deps, request, reply);
    const returnTo = safeReturn(body.return_to);
    const frame = frameFor(request, stylesheets, null, `/login?return_to=${encodeURIComponent(returnTo)}`);
    const chosen = chosenLanguage(request);
    if (typeof body.csrf !== 'string' || !checkCsrf(deps.config.secret, session.id, body.csrf)) {
      return errorPage(reply, 403, frame, pageText[frame.language].forged);
    }
    const email = typeof body.email === 'string' ? body.email : '';
    try {
      const user = await verifyLogin(deps, { email, password: typeof body.password === 'string' ? body.password : '' }, request.ip);
      // A new session id on sign-in, as /auth/login does (no fixation).
      await endSession(deps, session.id);
      setSessionCookie(reply, await startSession(deps, user.id), deps.config.publicUrl.startsWith('https://'));
      // A language picked on the sign-in page carries on to the consent page.
      return reply.redirect(chosen !== null && returnTo !== '/' ? withLanguage(returnTo, chosen) : returnTo, 303);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const t = pageText[frame.language];
      const message = err.code === 'rate_limited' ? t.tooMany : t.signInFailed;
      return loginPage(reply, err.code === 'rate_limited' ? 429 : 401, frame, { csrf: session.csrf, returnTo, email, error: message, chosen });
    }
  });
}
