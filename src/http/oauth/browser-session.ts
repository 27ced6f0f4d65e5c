import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import type { UserRow } from '../../store/rows.js';
import { csrfFor, isSessionId, newSessionId, sessionUser } from '../../domain/accounts/sessions.js';
import { SESSION_COOKIE } from '../credentials.js';
import { setSessionCookie } from '../session-cookie.js';

export interface BrowserSession {
  id: string;
  user: UserRow | null;
  csrf: string;
}

/**
 * The page's browser session from the tt_session cookie, as the web app's: a visitor without
 * one gets an anonymous session (cookie set) so the login form can carry a CSRF value.
 */
export async function browserSession(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<BrowserSession> {
  const header = request.headers.cookie;
  const cookie = header === undefined ? undefined : request.server.parseCookie(header)[SESSION_COOKIE];
  if (isSessionId(cookie))
    return { id: cookie, user: await sessionUser(deps, cookie), csrf: csrfFor(deps.config.secret, cookie) };
  const id = newSessionId();
  setSessionCookie(reply, id, deps.config.publicUrl.startsWith('https://'));
  return { id, user: null, csrf: csrfFor(deps.config.secret, id) };
}
