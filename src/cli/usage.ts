import { InvalidArgumentError } from 'commander';

/** A command called the wrong way (exit code 2), as opposed to one that failed (exit code 1). */
export class UsageError extends Error {}

/** An option parser for a whole number in 1..max; commander reports a bad value as usage. */
export function wholeNumber(max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new InvalidArgumentError(`must be a whole number from 1 to ${max}`);
    return n;
  };
}
