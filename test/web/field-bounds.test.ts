// The forms' bounds are the server's: every maxLength and minLength in the web app names a constant
// of src/domain/field-bounds.ts (through web/src/api/bounds.ts), never a number written again.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as server from '../../src/domain/field-bounds.js';

const root = new URL('../../web/src/', import.meta.url).pathname;
const sources = (readdirSync(root, { recursive: true }) as string[]).filter(
  (f) => /\.tsx?$/.test(f) && f !== join('api', 'types.ts'),
);

describe('field bounds in the web app', () => {
  it('writes no bound as a number', () => {
    const literal = /\b(maxLength|minLength)=\{\s*\d/;
    const offenders = sources.filter((f) => literal.test(readFileSync(join(root, f), 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('uses only constants the server has', () => {
    const used = new Set(
      sources.flatMap((f) =>
        [...readFileSync(join(root, f), 'utf8').matchAll(/\b(?:maxLength|minLength)=\{([A-Z_]+)\}/g)].map((m) => m[1]!),
      ),
    );
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) expect(server, name).toHaveProperty(name);
  });
});
