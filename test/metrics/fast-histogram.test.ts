import { describe, expect, it } from 'vitest';
import { Histogram, Registry } from 'prom-client';
import { FastHistogram } from '../../src/metrics/fast-histogram.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const VALUES = [0.0005, 0.001, 0.002, 0.05, 0.05, 0.7, 3, 12.5];

/** The sample lines of a scrape, each with its labels in a fixed order, so two exports compare. */
function normalised(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([^{ ]+)(?:\{(.*)\})? (.+)$/.exec(line)!;
      const labels = (match[2] ?? '').split(',').filter(Boolean).sort().join(',');
      return `${match[1]}{${labels}} ${Number(match[3])}`;
    })
    .sort();
}

describe('FastHistogram', () => {
  it("exports exactly what prom-client's own histogram exports for the same observations", async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const fast = new FastHistogram(ours, 'latency_seconds', 'help', BOUNDS);
    const reference = new Histogram({
      name: 'latency_seconds',
      help: 'help',
      labelNames: ['route', 'status'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const series = {
      a: fast.seriesFor({ route: '/a/:id', status: '200' }),
      b: fast.seriesFor({ route: '/b', status: '404' }),
    };
    VALUES.forEach((value, i) => {
      const key = i % 3 === 0 ? 'b' : 'a';
      series[key].observe(value);
      reference.observe(key === 'a' ? { route: '/a/:id', status: '200' } : { route: '/b', status: '404' }, value);
    });
    const exported = normalised(await ours.metrics());
    expect(exported).toEqual(normalised(await theirs.metrics()));
    expect(exported).toContain('latency_seconds_bucket{le="+Inf",route="/a/:id",status="200"} 5');
    expect(exported).toContain('latency_seconds_bucket{le="0.1",route="/a/:id",status="200"} 3');
  });

  it('starts every series at zero and resets to zero', async () => {
    const registry = new Registry();
    const fast = new FastHistogram(registry, 'q_seconds', 'help', BOUNDS);
    const series = fast.seriesFor({ outcome: 'ok' });
    expect(normalised(await registry.metrics())).toContain('q_seconds_count{outcome="ok"} 0');
    series.observe(0.5);
    expect(normalised(await registry.metrics())).toContain('q_seconds_count{outcome="ok"} 1');
    registry.resetMetrics();
    expect(normalised(await registry.metrics())).toContain('q_seconds_sum{outcome="ok"} 0');
  });
});
