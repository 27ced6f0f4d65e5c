/**
 * The tasks of the search case of 01-clients (issue 37: two terms over 5,000 tasks, about 50
 * matches a query, measured by 25 users): each of the 25 users has 200 tasks, 5,000 in all.
 * Text is drawn from one shared vocabulary of 20,000 words of random letters (4 to 9 of them), so
 * the trigram index sees the spread of trigrams real text gives it, rather than the few hundred of
 * bench/seed.ts's syllable words, which nearly every task holds. Each user also has two words of
 * their own, each in every other task of theirs and both in one task of four: 50 matches. The
 * words have ten letters, so no word of the vocabulary holds one by chance (search is substring).
 *
 * The FTS5 trigram index is one for all accounts: a term costs what its trigrams' lists cost over
 * every task of the store. With 5,000 tasks for each of the 25 users (125,000), the statement alone
 * took about 12 ms per query on the loaded VM of 2026-11-27 (the service within 15 % of it).
 */

/** Tasks of each user of the search case. */
export const SEARCH_TASKS = 200;

/** A deterministic generator of 31-bit numbers. */
function numbers(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return x >>> 1;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

function randomWord(next: () => number, min: number, max: number): string {
  const length = min + (next() % (max - min + 1));
  let word = '';
  for (let i = 0; i < length; i++) word += LETTERS[next() % LETTERS.length];
  return word;
}

const vocabulary = (() => {
  const next = numbers(37);
  return Array.from({ length: 20_000 }, () => randomWord(next, 4, 9));
})();

/** The two words of user `u`'s query: ten letters each, which no word of the vocabulary holds by chance. */
export function searchQuery(u: number): string {
  const next = numbers(1_000 + u);
  return `${randomWord(next, 10, 10)} ${randomWord(next, 10, 10)}`;
}

function sentence(next: () => number, words: number, extra: string[]): string {
  const parts = Array.from({ length: words }, () => vocabulary[next() % vocabulary.length]!);
  for (const word of extra) parts.splice(next() % (parts.length + 1), 0, word);
  return parts.join(' ');
}

/** Task `i` of user `u`: 5 words of title, 20 of text, 40 of notes, and the user's words where they belong. */
export function searchTaskFields(u: number, i: number): { title: string; text: string; notes: string } {
  const next = numbers(u * 1_000_003 + i + 1);
  const [first, second] = searchQuery(u).split(' ') as [string, string];
  const own = [...(i % 2 === 0 ? [first] : []), ...(Math.floor(i / 2) % 2 === 0 ? [second] : [])];
  // Each of the user's words lands in the title, the text or the notes.
  const where = own.map(() => next() % 3);
  const at = (field: number) => own.filter((_, k) => where[k] === field);
  return { title: sentence(next, 5, at(0)), text: sentence(next, 20, at(1)), notes: sentence(next, 40, at(2)) };
}
