import { describe, expect, it } from 'vitest';
import {
  can,
  grantableScopes,
  requireCapability,
  type Actor,
  type Capability,
  type Scope,
  type Via,
} from '../../src/domain/actor.js';
import type { PlanName } from '../../src/domain/plans.js';
import { newChange } from '../../src/domain/change.js';

function actor(scopes: Scope[], plan: PlanName, via: Via = 'token'): Actor {
  return {
    user: { id: 'usr_1' } as Actor['user'],
    via,
    credentialId: via === 'token' || via === 'mcp' ? 'pat_1' : null,
    client: null,
    change: newChange(),
    scopes: new Set(scopes),
    plan,
    trees: null,
  };
}

const all: Capability[] = ['read', 'write', 'attachments', 'attachmentWrites', 'transcribe'];
const allowed = (a: Actor) => all.filter((c) => can(a, c));

describe('capabilities: one rule for REST, MCP and the CLI', () => {
  it('gives attachment content (and its link) only to read + attachments (SPEC rule 4)', () => {
    expect(allowed(actor(['read'], 'sprout'))).toEqual(['read']);
    expect(allowed(actor(['attachments'], 'sprout'))).toEqual([]);
    expect(allowed(actor(['read', 'attachments'], 'seed'))).toEqual(['read', 'attachments']);
    expect(() => requireCapability(actor(['read'], 'grove'), 'attachments')).toThrow(
      expect.objectContaining({ code: 'insufficient_scope', details: [{ scopes: ['attachments'] }] }),
    );
  });

  it('lets API credentials write only on a paid plan of their own, the browser and the CLI on any', () => {
    const full: Scope[] = ['read', 'write', 'attachments'];
    for (const via of ['token', 'oauth', 'mcp'] as const) {
      expect(allowed(actor(full, 'seed', via)), via).toEqual(['read', 'attachments']);
      expect(allowed(actor(full, 'sprout', via)), via).toEqual(all);
    }
    for (const via of ['session', 'cli'] as const) expect(allowed(actor(full, 'seed', via)), via).toEqual(all);
    // CONTRACT §12's order: a missing scope is reported before the plan.
    expect(() => requireCapability(actor(['read'], 'seed'), 'write')).toThrow(
      expect.objectContaining({ code: 'insufficient_scope' }),
    );
    expect(() => requireCapability(actor(['write'], 'seed'), 'write')).toThrow(
      expect.objectContaining({ code: 'plan_read_only' }),
    );
  });

  it('needs write + attachments for uploads and transcription', () => {
    expect(can(actor(['read', 'write'], 'grove'), 'transcribe')).toBe(false);
    expect(can(actor(['write', 'attachments'], 'grove'), 'transcribe')).toBe(true);
    expect(can(actor(['write', 'attachments'], 'grove'), 'attachmentWrites')).toBe(true);
  });

  it('grants tokens the scopes the plan allows (SPEC rule 5)', () => {
    expect(grantableScopes('seed')).toEqual(['read', 'attachments']);
    expect(grantableScopes('sprout')).toEqual(['read', 'write', 'attachments']);
  });
});
