import type { FastifyRequest } from 'fastify';
import { header } from '../pipeline.js';
import { pageText, type PageLanguage } from './text.js';

export const pageLanguages = Object.keys(pageText) as PageLanguage[];

function isPageLanguage(value: unknown): value is PageLanguage {
  return typeof value === 'string' && (pageLanguages as string[]).includes(value);
}

/**
 * A language picked with the page's switch (`lang` in the query, or the form field that carries
 * it through a post) wins; then the signed-in user's language; then the browser's
 * Accept-Language; then English.
 */
export function pageLanguage(
  chosen: unknown,
  userLanguage: string | null,
  acceptLanguage: string | undefined,
): PageLanguage {
  if (isPageLanguage(chosen)) return chosen;
  if (isPageLanguage(userLanguage)) return userLanguage;
  const first = (acceptLanguage ?? '')
    .split(',')
    .map((part) => part.split(';')[0]!.trim().toLowerCase())
    .find((tag) => tag.startsWith('ru') || tag.startsWith('en'));
  return first?.startsWith('ru') === true ? 'ru' : 'en';
}

/** The language of a page answering this request (GET: the query's `lang`; POST: the form's). */
export function requestLanguage(request: FastifyRequest, userLanguage: string | null): PageLanguage {
  const source = (request.method === 'POST' ? request.body : request.query) as Record<string, unknown> | undefined;
  return pageLanguage(source?.lang, userLanguage, header(request, 'accept-language'));
}

/** The explicit choice, if the request carries one: kept through the login form and back to consent. */
export function chosenLanguage(request: FastifyRequest): PageLanguage | null {
  const source = (request.method === 'POST' ? request.body : request.query) as Record<string, unknown> | undefined;
  return isPageLanguage(source?.lang) ? source.lang : null;
}

/** The same GET page in another language: its path and query with `lang` set. */
export function withLanguage(url: string, language: PageLanguage): string {
  const parsed = new URL(url, 'http://page.invalid');
  parsed.searchParams.set('lang', language);
  return `${parsed.pathname}${parsed.search}`;
}
