import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Metrics } from './metrics.js';
import type { Series } from './fast-histogram.js';

/** Requests no route matched (the not-found handler): one series, never the path that was asked for. */
const UNMATCHED = 'unmatched';

/**
 * onResponse for every request: one histogram observation (the request counter is read from it)
 * on a series resolved once per route, method and status. Routes are found by their (per-route,
 * long-lived) config object, so the label is the template Fastify registered
 * (`/api/v1/tasks/:id`), never the URL with its ids, and a request costs three map lookups and a
 * few additions.
 */
export function makeMetricsHook(metrics: Metrics) {
  const byRoute = new WeakMap<object, Map<string, Map<number, Series>>>();
  const noRoute = {};

  function seriesOf(request: FastifyRequest, status: number): Series {
    const config = request.routeConfig as typeof request.routeConfig | null;
    const key = config ?? noRoute;
    let byMethod = byRoute.get(key);
    if (byMethod === undefined) byRoute.set(key, (byMethod = new Map()));
    let byStatus = byMethod.get(request.method);
    if (byStatus === undefined) byMethod.set(request.method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      series = metrics.requestDuration.seriesFor({
        method: request.method,
        route: config?.url ?? UNMATCHED,
        status: String(status),
      });
      byStatus.set(status, series);
    }
    return series;
  }

  return function metricsHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const status = reply.statusCode;
    seriesOf(request, status).observe(reply.elapsedTime / 1000);
    if (status === 429) metrics.rateLimited.inc();
    done();
  };
}
