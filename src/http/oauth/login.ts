import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { verifyLogin } from '../../domain/accounts/accounts.js';
import { checkCsrf, endSession, startSession } from '../../domain/accounts/sessions.js';
import { DomainError } from '../../domain/errors.js';
import { setSessionCookie } from '../session-cookie.js';
import { header } from '../pipeline.js';
import { browserSession } from './browser-session.js';
import { errorPage, loginPage } from './pages.js';
import { pageLanguage, pageText } from './text.js';

const hidden = { hide: true };

/** Only back into the authorization flow: anything else would make /login an open redirect. */
function safeReturn(value: unknown): string {
  return typeof value === 'string' && value.startsWith('/oauth/authorize?') ? value : '/';
}

/** The server-rendered sign-in form of the OAuth flow; it works without JavaScript. */
export function loginRoutes(deps: Deps, app: FastifyInstance): void {
  app.get('/login', { schema: hidden }, async (request, reply) => {
    const session = await browserSession(deps, request, reply);
    const returnTo = safeReturn((request.query as Record<string, unknown>).return_to);
    if (session.user !== null && returnTo !== '/') return reply.redirect(returnTo, 302);
    const language = pageLanguage(session.user?.language ?? null, header(request, 'accept-language'));
    return loginPage(reply, 200, language, { csrf: session.csrf, returnTo, email: '', error: null });
  });

  app.post('/login', { schema: hidden }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const session = await browserSession(deps, request, reply);
    const language = pageLanguage(null, header(request, 'accept-language'));
    const returnTo = safeReturn(body.return_to);
    if (typeof body.csrf !== 'string' || !checkCsrf(deps.config.secret, session.id, body.csrf)) {
      return errorPage(reply, 403, language, pageText[language].forged);
    }
    const email = typeof body.email === 'string' ? body.email : '';
    try {
      const user = await verifyLogin(deps, { email, password: typeof body.password === 'string' ? body.password : '' }, request.ip);
      // A new session id on sign-in, as /auth/login does (no fixation).
      await endSession(deps, session.id);
      setSessionCookie(reply, await startSession(deps, user.id), deps.config.publicUrl.startsWith('https://'));
      return reply.redirect(returnTo, 303);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const message = err.code === 'rate_limited' ? pageText[language].tooMany : pageText[language].signInFailed;
      return loginPage(reply, err.code === 'rate_limited' ? 429 : 401, language, { csrf: session.csrf, returnTo, email, error: message });
    }
  });
}
