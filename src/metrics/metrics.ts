import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { FastHistogram, type Series } from './fast-histogram.js';
import type { Journal } from '../domain/agents/journal.js';
import type { Db, Store } from '../store/db.js';
import { speechQueueDepth } from '../store/speech-queue.js';

/** Seconds; from a cached read (a millisecond) to a slow upload or export. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const QUERY_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5, 30];

/** What the scrape-time gauges read: nothing here is touched on the request path. */
export interface Watched {
  store: Store;
  db: Db;
  journal: Journal;
}

/**
 * The service's Prometheus metrics, in a registry of their own (not prom-client's global one),
 * so two app instances in one process (tests) never share or collide. Counters and histograms are
 * updated where things happen; gauges are read when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Observed on every request (see makeMetricsHook): series kept by the hook, no label hashing. */
  readonly requestDuration = new FastHistogram(
    this.registry,
    'tasktree_http_request_duration_seconds',
    'HTTP request latency by method, route template and status.',
    REQUEST_BUCKETS,
  );
  private readonly requests = new Counter({
    name: 'tasktree_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
    // Read from the histogram's counts when scraped, so a request pays for one series, not two.
    collect: () => {
      this.requests.reset();
      for (const series of this.requestDuration.series) this.requests.inc(series.labels, series.count);
    },
  });
  readonly rateLimited = new Counter({
    name: 'tasktree_rate_limit_rejections_total',
    help: 'Requests refused with 429 by a rate limit.',
    registers: [this.registry],
  });
  private readonly queryDuration = new FastHistogram(
    this.registry,
    'tasktree_db_query_duration_seconds',
    'Database queries run through the query builder, by outcome.',
    QUERY_BUCKETS,
  );
  private readonly queryOk: Series = this.queryDuration.seriesFor({ outcome: 'ok' });
  private readonly queryError: Series = this.queryDuration.seriesFor({ outcome: 'error' });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Kysely's query log (see openStore): one histogram observation per query. */
  readonly observeQuery = (durationMs: number, failed: boolean): void => {
    (failed ? this.queryError : this.queryOk).observe(durationMs / 1000);
  };

  /** Registers the gauges that read the store, the journal and the speech queue on each scrape. */
  watch({ store, db, journal }: Watched): void {
    const pool = store.pool;
    if (pool !== undefined) {
      new Gauge({
        name: 'tasktree_db_pool_connections',
        help: 'PostgreSQL pool connections: total open, idle, and callers waiting for one.',
        labelNames: ['state'] as const,
        registers: [this.registry],
        collect() {
          this.set({ state: 'total' }, pool.totalCount);
          this.set({ state: 'idle' }, pool.idleCount);
          this.set({ state: 'waiting' }, pool.waitingCount);
        },
      });
    }
    new Gauge({
      name: 'tasktree_journal_pending_records',
      help: 'Agent call journal records waiting in memory for the next flush.',
      registers: [this.registry],
      collect() {
        this.set(journal.pendingCount);
      },
    });
    new Gauge({
      name: 'tasktree_speech_jobs',
      help: 'Speech jobs waiting (queued) or in hand (running), across all instances.',
      labelNames: ['status'] as const,
      registers: [this.registry],
      async collect() {
        // A database outage must not fail the whole scrape: the process metrics still tell why.
        const depth = await speechQueueDepth(db).catch(() => null);
        this.reset();
        if (depth === null) return;
        this.set({ status: 'queued' }, depth.queued);
        this.set({ status: 'running' }, depth.running);
      },
    });
  }
}
