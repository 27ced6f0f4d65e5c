import { describe, expect, it } from 'vitest';
import { CredentialCache, type KeptSession, type TokenOwner } from '../../src/domain/agents/credential-cache.js';

function owner(tokenId: string, userId: string, expiresAt = '2999-01-01T00:00:00.000Z'): TokenOwner {
  return {
    token: { id: tokenId, expires_at: expiresAt } as TokenOwner['token'],
    user: { id: userId } as TokenOwner['user'],
    scopes: new Set(),
    trees: null,
    lastUsedMs: 0,
  };
}

function session(credentialId: string, ownerId: string): KeptSession {
  return { ownerId, credentialId, protocolVersion: '2025-11-25', clientName: 'c', clientVersion: '1', lastSeenMs: 0 };
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

  it('keeps a live MCP session for its TTL, and forgets it with its token, its user, its end and a clear', () => {
    let now = 1_000_000;
    const cache = new CredentialCache(1_000, () => now);
    const keep = (hash: string, credentialId: string, ownerId: string) =>
      cache.setSession(hash, session(credentialId, ownerId), cache.generation);
    keep('s1', 'pat_1', 'usr_1');
    now += 999;
    expect(cache.getSession('s1')?.credentialId).toBe('pat_1');
    now += 1;
    expect(cache.getSession('s1')).toBeUndefined();

    keep('s1', 'pat_1', 'usr_1');
    keep('s2', 'pat_2', 'usr_1');
    keep('s3', 'pat_3', 'usr_2');
    keep('s4', 'pat_3', 'usr_2');
    cache.forgetToken('pat_1');
    expect(['s1', 's2', 's3', 's4'].map((h) => cache.getSession(h)?.credentialId)).toEqual([
      undefined,
      'pat_2',
      'pat_3',
      'pat_3',
    ]);
    cache.forgetUser('usr_1');
    expect(cache.getSession('s2')).toBeUndefined();
    cache.forgetSession('s3');
    expect([cache.getSession('s3'), cache.getSession('s4')?.credentialId]).toEqual([undefined, 'pat_3']);
    cache.clear();
    expect(cache.getSession('s4')).toBeUndefined();
  });

  it('keeps no session looked up while something was forgotten, and none with a TTL of zero', () => {
    const cache = new CredentialCache();
    const since = cache.generation;
    cache.forgetSession('s1'); // DELETE /mcp lands while the lookup waits for the database
    cache.setSession('s1', session('pat_1', 'usr_1'), since);
    expect(cache.getSession('s1')).toBeUndefined();
    const later = cache.generation;
    cache.forgetToken('pat_9'); // any revocation
    cache.setSession('s1', session('pat_1', 'usr_1'), later);
    expect(cache.getSession('s1')).toBeUndefined();
    const off = new CredentialCache(0);
    off.setSession('s1', session('pat_1', 'usr_1'), off.generation);
    expect(off.getSession('s1')).toBeUndefined();
  });
});
