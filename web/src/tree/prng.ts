// One seeded random source for every layout, so the same tree always draws the same picture
// (CONTRACT §15). Math.random is never used by the layouts.

/** FNV-1a over the UTF-16 code units: a stable 32-bit seed from the tree id. */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export type Random = () => number;

/**
 * mulberry32: a small, fast generator with a 32-bit state and good spread, which the LCG of
 * d3-hierarchy's src/lcg.js lacks in its low bits. Returns numbers in [0, 1).
 */
export function makeRandom(seed: string | number): Random {
  let state = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A number in [min, max) from the given source. */
export function between(random: Random, min: number, max: number): number {
  return min + (max - min) * random();
}
