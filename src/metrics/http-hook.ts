import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Counter, Histogram } from 'prom-client';
import type { Metrics } from './metrics.js';

type Labels = 'method' | 'route' | 'status';

interface Series {
  requests: Counter.Internal;
  duration: Histogram.Internal<Labels>;
}

/** Requests no route matched (the not-found handler): one series, never the path that was asked for. */
const UNMATCHED = 'unmatched';

/**
 * onResponse for every request: one counter increment and one histogram observation on series
 * resolved once per route, method and status. Routes are found by their (per-route, long-lived)
 * config object, so the label is the template Fastify registered (`/api/v1/tasks/:id`), never
 * the URL with its ids, and the request path costs three map lookups and no label hashing.
 */
export function makeMetricsHook(metrics: Metrics) {
  const byRoute = new WeakMap<object, Map<string, Map<number, Series>>>();
  const noRoute = {};

  function seriesOf(request: FastifyRequest, status: number): Series {
    const options = request.routeOptions;
    const key = (options.config as object | undefined) ?? noRoute;
    let byMethod = byRoute.get(key);
    if (byMethod === undefined) byRoute.set(key, (byMethod = new Map()));
    let byStatus = byMethod.get(request.method);
    if (byStatus === undefined) byMethod.set(request.method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (series === undefined) {
      const labels = { method: request.method, route: options.url ?? UNMATCHED, status: String(status) };
      series = { requests: metrics.requests.labels(labels), duration: metrics.requestDuration.labels(labels) };
      byStatus.set(status, series);
    }
    return series;
  }

  return function metricsHook(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
    const status = reply.statusCode;
    const series = seriesOf(request, status);
    series.requests.inc();
    series.duration.observe(reply.elapsedTime / 1000);
    if (status === 429) metrics.rateLimited.inc();
    done();
  };
}
