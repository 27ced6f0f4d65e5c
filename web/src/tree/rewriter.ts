// A small parametric L-system (after nylki/lindenmayer: axiom, productions, iterate(n), then
// finals interpreted per symbol). Our own, because lindenmayer ships no types and its stochastic
// successors draw from Math.random; here successors are functions handed OUR seeded source.
import type { Random } from './prng.js';

/** A symbol with optional parameters: a length or angle, or the id of what it stands for. */
export interface Module {
  symbol: string;
  value?: number;
  id?: string;
  /** Branch width for F. */
  width?: number;
  /** For a project's bud A: where its cone's centre lies, in degrees from the turtle's heading. */
  offset?: number;
}

export interface SuccessorContext {
  module: Module;
  index: number;
  /** 1 on the first rewrite. */
  iteration: number;
  random: Random;
}

/** A successor returns the modules that replace one module, or null to keep it. */
export type Productions = Record<string, (ctx: SuccessorContext) => Module[] | null>;

export function iterate(axiom: Module[], productions: Productions, n: number, random: Random): Module[] {
  let word = axiom;
  for (let iteration = 1; iteration <= n; iteration++) {
    const next: Module[] = [];
    word.forEach((module, index) => {
      const successor = productions[module.symbol];
      const out = successor ? successor({ module, index, iteration, random }) : null;
      if (out) for (const m of out) next.push(m);
      else next.push(module);
    });
    word = next;
  }
  return word;
}

/** Modules from a plain string, one per character: for plain (non-parametric) systems. */
export function modules(text: string): Module[] {
  return [...text].map((symbol) => ({ symbol }));
}

/** The word as text: symbols, with a module's id in parentheses (numbers are left out). */
export function wordToString(word: Module[]): string {
  return word.map((m) => (m.id !== undefined ? `${m.symbol}(${m.id})` : m.symbol)).join('');
}
