import { describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const timeOf = (id: string) => [...id.slice(4, 14)].reduce((t, c) => t * 32 + CROCKFORD.indexOf(c), 0);

describe('ids', () => {
  it('carry their millisecond, sort by it, and never repeat, also when many share one', () => {
    const base = Date.UTC(2026, 10, 24, 8, 0, 0, 123);
    // Runs of ids in one millisecond (the time part is reused), then the next, then an earlier one.
    const times = [base, base, base, base + 1, base + 1, base + 31, base + 32, base - 5, base];
    const ids = times.map((t) => newId('agc', t));
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(/^agc_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(timeOf(id)).toBe(times[i]);
    }
    expect(new Set(ids).size).toBe(ids.length);
    const sorted = [...ids].sort();
    expect(sorted.map(timeOf)).toEqual([...times].sort((a, b) => a - b));
  });
});
