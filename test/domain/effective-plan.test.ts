import { describe, expect, it } from 'vitest';
import { effectivePlan } from '../../src/domain/plans.js';

describe('effective plan', () => {
  const hourMs = 3_600_000;
  const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

  it('is the stored plan while it has not lapsed, by the clock or by the time given', () => {
    expect(effectivePlan('grove', null)).toBe('grove');
    expect(effectivePlan('sprout', at(hourMs))).toBe('sprout');
    expect(effectivePlan('sprout', at(-hourMs))).toBe('seed');
    const expiry = '2026-01-01T00:00:00.000Z';
    expect(effectivePlan('sprout', expiry, new Date('2025-12-31T23:59:59.999Z'))).toBe('sprout');
    expect(effectivePlan('sprout', expiry, new Date(expiry))).toBe('seed');
  });

  it('is Seed for an unknown plan name', () => {
    expect(effectivePlan('platinum', null)).toBe('seed');
  });
});
