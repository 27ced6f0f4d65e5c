import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** What /oauth/authorize sends here is its own request target: printable ASCII only. */
const REQUEST_TARGET = /^[\x21-\x7e]*$/;

/**
 * Where to go after signing in: only back into the authorization flow, anything else is '/' (so
 * /login is never an open redirect). Null when malformed (control characters, anything beyond
 * ASCII), which no page of ours sends and no Location header can carry: such a request gets the
 * 400 page, not a redirect Node would refuse to write (a 500).
 */
function returnTarget(value: unknown): string | null {
  if (typeof value !== 'string') return '/';
  if (!REQUEST_TARGET.test(value)) return null;
  return value.startsWith('/oauth/authorize?') ? value : '/';
}

function malformedReturn(request: FastifyRequest, reply: FastifyReply, stylesheets: readonly string[]) {
  const frame = frameFor(request, stylesheets, null, '/login');
  return errorPage(reply, 400, frame, pageText[frame.language].badReturn);
}

/** The server-rendered sign-in form of the OAuth flow; it works without JavaScript. */
export function loginRoutes(deps: Deps, app: FastifyInstance, stylesheets: readonly string[]): void {
  app.get('/login', { schema: hidden }, async (request, reply) => {
    const returnTo = returnTarget((request.query as Record<string, unknown>).return_to);
    if (returnTo === null) return malformedReturn(request, reply, stylesheets);
    const session = await browserSession(deps, request, reply);
    if (session.user !== null && returnTo !== '/') return reply.redirect(returnTo, 302);
    const frame = frameFor(request, stylesheets, session.user?.language ?? null);
    return loginPage(reply, 200, frame, {
      csrf: session.csrf,
      returnTo,
      email: '',
      error: null,
      chosen: chosenLanguage(request),
    });
  });

  app.post('/login', { schema: hidden }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const returnTo = returnTarget(body.return_to);
    if (returnTo === null) return malformedReturn(request, reply, stylesheets);
    const session = await browserSession(deps, request, reply);
    const frame = frameFor(request, stylesheets, null, `/login?return_to=${encodeURIComponent(returnTo)}`);
    const chosen = chosenLanguage(request);
    if (typeof body.csrf !== 'string' || !checkCsrf(deps.config.secret, session.id, body.csrf)) {
      return errorPage(reply, 403, frame, pageText[frame.language].forged);
    }
    const email = typeof body.email === 'string' ? body.email : '';
    try {
      const user = await verifyLogin(
        deps,
        { email, password: typeof body.password === 'string' ? body.password : '' },
        request.ip,
      );
      // A new session id on sign-in, as /auth/login does (no fixation).
      await endSession(deps, session.id);
      setSessionCookie(reply, await startSession(deps, user.id), deps.config.publicUrl.startsWith('https://'));
      // A language picked on the sign-in page carries on to the consent page.
      return reply.redirect(chosen !== null && returnTo !== '/' ? withLanguage(returnTo, chosen) : returnTo, 303);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      const t = pageText[frame.language];
      const message = err.code === 'rate_limited' ? t.tooMany : t.signInFailed;
      return loginPage(reply, err.code === 'rate_limited' ? 429 : 401, frame, {
        csrf: session.csrf,
        returnTo,
        email,
        error: message,
        chosen,
      });
    }
  });
}
