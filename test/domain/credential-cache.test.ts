import { describe, expect, it } from 'vitest';
import { CredentialCache, type TokenOwner } from '../../src/domain/agents/credential-cache.js';

function owner(tokenId: string, userId: string, expiresAt = '2999-01-01T00:00:00.000Z'): TokenOwner {
  return {
    token: { id: tokenId, expires_at: expiresAt } as TokenOwner['token'],
    user: { id: userId } as TokenOwner['user'],
    scopes: new Set(),
    trees: null,
    lastUsedMs: 0,
  };
}

describe('CredentialCache', () => {
  it('keeps a lookup for its TTL and no longer', () => {
    let now = 1_000_000;
    const cache = new CredentialCache(1_000, () => now);
    cache.set('h1', owner('pat_1', 'usr_1'), cache.generation);
    now += 999;
    expect(cache.get('h1')?.token.id).toBe('pat_1');
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('never keeps an entry past the expiry of its token', () => {
    let now = Date.parse('2026-11-23T12:00:00.000Z');
    const cache = new CredentialCache(1_000, () => now);
    cache.set('h1', owner('pat_1', 'usr_1', '2026-11-23T12:00:00.400Z'), cache.generation);
    now += 399;
    expect(cache.get('h1')).toBeDefined();
    now += 1;
    expect(cache.get('h1')).toBeUndefined();
  });

  it('forgets by token and by user, and nothing else', () => {
    const cache = new CredentialCache();
    cache.set('h1', owner('pat_1', 'usr_1'), cache.generation);
    cache.set('h2', owner('pat_2', 'usr_1'), cache.generation);
    cache.set('h3', owner('pat_3', 'usr_2'), cache.generation);
    cache.forgetToken('pat_1');
    expect([cache.get('h1'), cache.get('h2')?.token.id, cache.get('h3')?.token.id]).toEqual([
      undefined,
      'pat_2',
      'pat_3',
    ]);
    cache.forgetUser('usr_1');
    expect([cache.get('h2'), cache.get('h3')?.token.id]).toEqual([undefined, 'pat_3']);
    cache.clear();
    expect(cache.get('h3')).toBeUndefined();
  });

  it('does not keep a lookup that was in flight while something was forgotten', () => {
    const cache = new CredentialCache();
    const since = cache.generation;
    cache.forgetToken('pat_1'); // a revocation lands while the lookup waits for the database
    cache.set('h1', owner('pat_1', 'usr_1'), since);
    expect(cache.get('h1')).toBeUndefined();
    cache.set('h1', owner('pat_1', 'usr_1'), cache.generation);
    expect(cache.get('h1')).toBeDefined();
  });

  it('keeps nothing with a TTL of zero and makes room by dropping the oldest', () => {
    const off = new CredentialCache(0);
    off.set('h1', owner('pat_1', 'usr_1'), off.generation);
    expect(off.get('h1')).toBeUndefined();
    const cache = new CredentialCache();
    for (let i = 0; i <= 10_000; i++) cache.set(`h${i}`, owner(`pat_${i}`, 'usr_1'), cache.generation);
    expect(cache.get('h0')).toBeUndefined();
    expect(cache.get('h1')?.token.id).toBe('pat_1');
    expect(cache.get('h10000')?.token.id).toBe('pat_10000');
  });
});
