import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Where `vite build` puts the app; the same place from src/http (tsx) and dist/http (node). */
export const WEB_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

// The app is same-origin and ships no inline script or style (Vite's assetsInlineLimit: 0), so
// everything can be 'self'; blob: and data: images are the thumbnails and icons the app makes itself.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "font-src 'self'",
  "frame-ancestors 'none'",
  "form-action 'self'",
  "object-src 'none'",
  "base-uri 'self'",
].join('; ');

const APP_HEADERS: Record<string, string> = {
  'Content-Security-Policy': CSP,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

// Hashed file names never change content, so a browser may keep them for 30 days; the HTML must
// be revalidated on every load so that a new deployment is picked up at once.
const IMMUTABLE = 'public, max-age=2592000, immutable';
const REVALIDATE = 'no-cache';

/** Paths owned by the API and the service: they keep their JSON 404 even for a browser. */
const NOT_APP = /^\/(api|mcp|docs|healthz|readyz|metrics|\.well-known|oauth)(\/|$|\?)/;

export interface WebApp {
  /** Answers a GET for an unknown app path (a client-side route) with index.html; false when it is not one. */
  fallback(request: FastifyRequest, reply: FastifyReply): boolean;
}

/**
 * Serves the built browser app at `/` when it has been built (dist/web/index.html exists); without
 * a build the service runs as before and every unknown path stays a JSON 404.
 */
export async function registerWebApp(app: FastifyInstance, dir: string = WEB_DIR): Promise<WebApp | null> {
  const indexPath = join(dir, 'index.html');
  if (!existsSync(indexPath)) {
    app.log.warn({ dir }, 'browser app not built (npm run build); serving the API only');
    return null;
  }
  // Read once: it is tiny, and the fallback then answers without touching the disk.
  const indexHtml = readFileSync(indexPath);
  await app.register(fastifyStatic, {
    root: dir,
    // One route per built file instead of a catch-all: the 405/404 logic keeps knowing real paths.
    wildcard: false,
    index: ['index.html'],
    cacheControl: false,
    setHeaders(res, path) {
      for (const [name, value] of Object.entries(APP_HEADERS)) res.setHeader(name, value);
      res.setHeader('Cache-Control', path.endsWith('.html') ? REVALIDATE : IMMUTABLE);
    },
  });
  return {
    fallback(request, reply) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return false;
      if (NOT_APP.test(request.url)) return false;
      if (!(request.headers.accept ?? '').includes('text/html')) return false;
      void reply
        .code(200)
        .headers({ ...APP_HEADERS, 'Cache-Control': REVALIDATE, 'Content-Type': 'text/html; charset=utf-8' })
        .send(indexHtml);
      return true;
    },
  };
}
