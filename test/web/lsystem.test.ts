// lsystem: an axiom rewritten by productions (ours, seeded, never Math.random) to the depth of
// the project nesting, and a turtle that hangs every task as a leaf.
import { describe, expect, it } from 'vitest';
import { layoutLSystem, lsystemWord, buildLSystem, MAX_REWRITES } from '../../web/src/tree/lsystem.js';
import { buildModel } from '../../web/src/tree/model.js';
import { makeRandom } from '../../web/src/tree/prng.js';
import { iterate, modules, wordToString, type Productions } from '../../web/src/tree/rewriter.js';
import type { LayoutInput } from '../../web/src/tree/types.js';
import { sampleTree } from './sample-tree.js';
import { expectEverythingPlaced, expectInsideViewBox, expectLeavesApart } from './layout-checks.js';

/** A chain of projects, each nested in the one before, each with `tasks` tasks. */
function chain(depth: number, tasks: number): LayoutInput {
  const projects = Array.from({ length: depth }, (_, i) => ({
    id: `p${i}`,
    parent_id: i === 0 ? null : `p${i - 1}`,
    name: `P${i}`,
    color: '#2e933c',
    position: 0,
  }));
  return {
    treeId: `chain-${depth}`,
    name: 'Chain',
    projects,
    tasks: projects.flatMap((p, i) =>
      Array.from({ length: tasks }, (_, j) => ({
        id: `t${i}-${j}`,
        project_id: p.id,
        title: 'T',
        color: '#e4572e',
        status: 'todo' as const,
        position: j,
      })),
    ),
  };
}

describe('the rewriter', () => {
  it("rewrites Lindenmayer's algae to the known word", () => {
    const algae: Productions = { A: () => modules('AB'), B: () => modules('A') };
    const random = makeRandom(1);
    expect(
      ['A', 'AB', 'ABA', 'ABAAB', 'ABAABABA'].map((_, n) => wordToString(iterate(modules('A'), algae, n, random))),
    ).toEqual(['A', 'AB', 'ABA', 'ABAAB', 'ABAABABA']);
  });

  it('gives function successors our seeded source: one seed, one word', () => {
    const bush: Productions = { X: ({ random }) => modules(random() < 0.5 ? 'F[+X]X' : 'F[-X]') };
    const word = (seed: number) => wordToString(iterate(modules('X'), bush, 5, makeRandom(seed)));
    expect(word(7)).toBe(word(7));
    expect(new Set([1, 2, 3, 4, 5, 6].map(word)).size).toBeGreaterThan(1);
  });
});

describe('lsystem', () => {
  it('rewrites a two-project tree to the expected word', () => {
    const task = (id: string, project: string) => ({
      id,
      project_id: project,
      title: id,
      color: '#e4572e',
      status: 'todo' as const,
      position: 0,
    });
    const input: LayoutInput = {
      treeId: 'tiny',
      name: 'Tiny',
      projects: [
        { id: 'p2', parent_id: null, name: 'P2', color: '#2e933c', position: 2 },
        { id: 'p1', parent_id: null, name: 'P1', color: '#2e933c', position: 1 },
      ],
      tasks: [task('t2', 'p2'), task('t1', 'p1')],
    };
    // Rewrite 1 opens the trunk's bud into the trunk and two cones, left (-) and right (+);
    // rewrite 2 opens each project's bud into its bare stem, its knot K and its task's leaf.
    expect(wordToString(lsystemWord(input))).toBe('F[-FK(p1)F[+FL(t1)]][+FK(p2)F[+FL(t2)]]');
  });

  it('rewrites to the nesting depth + 1, and more rewrites give more segments', () => {
    const input = chain(3, 4);
    const model = buildModel(input);
    const system = buildLSystem(model, makeRandom('x'));
    expect(system.rewrites).toBe(4);
    const segments = [1, 2, 3, 4].map(
      (n) => iterate(system.axiom, system.productions, n, makeRandom('x')).filter((m) => m.symbol === 'F').length,
    );
    expect(increasing(segments)).toBe(true);
    const deeper = [1, 2, 3, 4].map((d) => layoutLSystem(chain(d, 4)).branches.length);
    expect(increasing(deeper)).toBe(true);
  });

  it(`caps the rewrites at ${MAX_REWRITES} and still hangs every task of deeper nesting`, () => {
    const input = chain(9, 3);
    expect(buildLSystem(buildModel(input), makeRandom('x')).rewrites).toBe(MAX_REWRITES);
    const layout = layoutLSystem(input);
    expectEverythingPlaced(input, layout);
    expectInsideViewBox(layout);
    expectLeavesApart(layout);
  });

  it('grows twigs that fork on later rewrites, and a different tree id grows them differently', () => {
    const input = sampleTree({ projects: 20, tasks: 1000 });
    const word = wordToString(lsystemWord(input));
    expect(word).toMatch(/X/);
    expect(wordToString(lsystemWord({ ...input, treeId: 'other' }))).not.toBe(word);
  });
});

function increasing(xs: number[]) {
  return xs.every((x, i) => i === 0 || x > xs[i - 1]!);
}
