import { describe, expect, it } from 'vitest';
import madge from 'madge';

// The command-line tool opens the domain's dependencies without the HTTP layer: what a command
// does (the export's lists above all) must not depend on a route module having been imported.
describe('the command-line tool', () => {
  it('imports no HTTP module, except for `serve` when it runs', async () => {
    // Dynamic imports are left out: `serve` and the composition root load the server only when it starts.
    const graph = await madge('src/cli/main.ts', {
      baseDir: '.',
      fileExtensions: ['ts'],
      detectiveOptions: { ts: { skipAsyncImports: true } },
    });
    const modules = Object.keys(graph.obj());
    expect(modules).toContain('src/domain/trees/export.ts');
    expect(modules.filter((file) => file.startsWith('src/http/'))).toEqual([]);
  });
});
