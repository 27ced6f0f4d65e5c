import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE } from './credentials.js';

const MAX_AGE_SECONDS = 30 * 86_400;

/** The browser session cookie of CONTRACT §2: HttpOnly, SameSite=Lax, Secure behind https. */
export function setSessionCookie(reply: FastifyReply, sessionId: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: MAX_AGE_SECONDS,
  });
}
