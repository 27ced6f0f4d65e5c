import type { Deps } from '../src/domain/deps.js';
import type { Actor } from '../src/domain/actor.js';
import { createTree } from '../src/domain/trees/trees.js';
import { insertTasksBulk } from '../src/domain/trees/tasks.js';

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'po',
  'da',
  'fi',
  'gu',
  'he',
  'ja',
  'wi',
  'xo',
  'yu',
  'bre',
  'str',
];

/** A deterministic vocabulary of 8,000 pseudo-words, so searches match a realistic few. */
function word(n: number): string {
  let out = '';
  let x = n;
  for (let i = 0; i < 3; i++) {
    out += SYLLABLES[x % SYLLABLES.length];
    x = Math.floor(x / SYLLABLES.length);
  }
  return out;
}

function sentence(seed: number, words: number): string {
  const parts: string[] = [];
  let x = seed;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    parts.push(word(x % 8000));
  }
  return parts.join(' ');
}

export function taskFields(i: number) {
  return { title: sentence(i, 5), text: sentence(i + 7, 20), notes: sentence(i + 13, 40) };
}

/** Builds trees through the domain's bulk path; returns their ids and the seconds it took. */
export async function seedTasks(
  deps: Deps,
  actor: Actor,
  trees: number,
  perTree: number,
): Promise<{ treeIds: string[]; seconds: number }> {
  const started = performance.now();
  const treeIds: string[] = [];
  for (let t = 0; t < trees; t++) {
    const tree = await createTree(deps, actor, { name: `bench ${t}` });
    for (let start = 0; start < perTree; start += 10_000) {
      const batch = Array.from({ length: Math.min(10_000, perTree - start) }, (_, i) =>
        taskFields(t * perTree + start + i),
      );
      await insertTasksBulk(deps, actor, tree.id, batch);
    }
    treeIds.push(tree.id);
  }
  return { treeIds, seconds: (performance.now() - started) / 1000 };
}
