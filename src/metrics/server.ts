import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { MetricsConfig } from '../config.js';
import { sha256 } from '../domain/crypto.js';
import type { Metrics } from './metrics.js';

export interface MetricsServer {
  /** `http://host:port`, once listening. */
  url: string;
  close(): Promise<void>;
}

function answer(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  response.end(JSON.stringify({ error: { code, message } }));
}

/**
 * Compares digests, not the strings: equal lengths for timingSafeEqual, and the time taken says
 * nothing about how much of the token a guess got right.
 */
function bearerMatches(request: IncomingMessage, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  if (match === null) return false;
  return timingSafeEqual(Buffer.from(sha256(match[1]!)), Buffer.from(sha256(token)));
}

/**
 * `GET /metrics` on a listener of its own, bound to the service's HOST: the public port (and
 * whatever proxy fronts it) never serves metrics, and a scraper on the private network needs no
 * route through the API's authentication, rate limit or journal. METRICS_TOKEN adds a Bearer check
 * for when HOST is reachable by others.
 */
export async function startMetricsServer(
  metrics: Metrics,
  config: MetricsConfig,
  host: string,
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?', 1)[0];
    if (path !== '/metrics') return answer(response, 404, 'not_found', 'Only /metrics is served here.');
    if (request.method !== 'GET' && request.method !== 'HEAD')
      return answer(response, 405, 'method_not_allowed', 'Use GET.', { allow: 'GET, HEAD' });
    if (config.token !== null && !bearerMatches(request, config.token)) {
      return answer(response, 401, 'unauthenticated', 'Send METRICS_TOKEN as a Bearer token.', {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      () => answer(response, 500, 'internal', 'The metrics could not be collected.'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
