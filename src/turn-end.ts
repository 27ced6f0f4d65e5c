/**
 * The end of a turn of the event loop (setImmediate, after the poll phase), when every request
 * read in the turn has gone as far as it can without waiting. Group commit runs the turn's writes
 * there, since every write that arrived together has joined by then; the answers made in the turn
 * are written last, those of the writes included, so that they leave together
 * (http/turn-end-writes.ts says why that pays).
 *
 * Node runs the microtasks of one immediate before the next, so work queued here settles what it
 * can (a SQLite commit, whose statements never wait) before the answers are let go.
 */
let answers: Array<() => void> = [];
let release: NodeJS.Immediate | null = null;

/** Runs `work` at the end of this turn, before the turn's answers are written. */
export function atTurnEnd(work: () => void): void {
  setImmediate(work);
  // The answers `work` makes at once should leave with the turn's others: let them go after it.
  if (release !== null) clearImmediate(release);
  release = setImmediate(releaseAnswers);
}

/** Writes an answer at the end of this turn, with the others made in it. `send` must not throw. */
export function answerAtTurnEnd(send: () => void): void {
  answers.push(send);
  release ??= setImmediate(releaseAnswers);
}

function releaseAnswers(): void {
  release = null;
  const due = answers;
  answers = [];
  for (const send of due) send();
}
