import type { FastifyRequest } from 'fastify';
import type { PageFrame } from './pages.js';
import { requestLanguage, withLanguage } from './language.js';

/**
 * The frame of a page answering this request: its language, the app's stylesheets, and the
 * language switch: the same URL with `lang` set for a GET, `page` (a GET URL) for the answer to a
 * post, none without one.
 */
export function frameFor(
  request: FastifyRequest,
  stylesheets: readonly string[],
  userLanguage: string | null,
  page?: string,
): PageFrame {
  const url = page ?? (request.method === 'GET' ? request.url : null);
  return {
    language: requestLanguage(request, userLanguage),
    stylesheets,
    switchTo: url === null ? null : (language) => withLanguage(url, language),
  };
}
