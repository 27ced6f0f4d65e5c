// An end of access typed on the sharing page is the person's wall-clock time in their profile's
// time zone (not the browser's); zonedToIso turns it into the UTC instant the API stores.
import { describe, expect, it } from 'vitest';
import { zonedToIso } from '../../web/src/i18n/zoned.js';

describe('zonedToIso', () => {
  it('reads the wall clock in the given zone, summer and winter', () => {
    expect(zonedToIso('2030-01-31T18:00', 'Europe/Berlin')).toBe('2030-01-31T17:00:00.000Z');
    expect(zonedToIso('2030-07-31T18:00', 'Europe/Berlin')).toBe('2030-07-31T16:00:00.000Z');
    expect(zonedToIso('2030-01-01T08:30', 'Asia/Tokyo')).toBe('2029-12-31T23:30:00.000Z');
    expect(zonedToIso('2030-03-10T12:00', 'America/New_York')).toBe('2030-03-10T16:00:00.000Z');
    expect(zonedToIso('2030-05-05T05:05', 'UTC')).toBe('2030-05-05T05:05:00.000Z');
  });

  it('puts a time the clocks skip (spring forward) on the far side of the gap', () => {
    // 02:30 does not exist in Berlin on 2030-03-31; read with the winter offset it is 03:30 summer time.
    expect(zonedToIso('2030-03-31T02:30', 'Europe/Berlin')).toBe('2030-03-31T01:30:00.000Z');
  });

  it('refuses anything that is not a datetime-local value', () => {
    expect(zonedToIso('', 'UTC')).toBeNull();
    expect(zonedToIso('2030-01-31', 'UTC')).toBeNull();
    expect(zonedToIso('2030-01-31T18:00Z', 'UTC')).toBeNull();
  });
});
