import { invalid } from './errors.js';

const COLOR = /^#[a-fA-F0-9]{6}$/;

/** Field rules shared by projects and tasks (SPEC "Resources and their fields"). */
export function checkColor(path: string, value: string): void {
  if (!COLOR.test(value)) throw invalid(path, 'must look like #a1b2c3');
}

export function checkPosition(path: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw invalid(path, 'must be an integer of at least 0');
}

/** Ids are opaque strings of at most 160 characters (CONTRACT §1). */
export function checkId(path: string, value: string): void {
  if (value.length < 1 || value.length > 160) throw invalid(path, 'must be an id of 1 to 160 characters');
}
