import { useState } from 'preact/hooks';
import { messageOf } from './ErrorNote';

export interface SubmitOptions<A extends unknown[]> {
  /** The page's own words for a failure, e.g. 401 at sign-in; `null` shows nothing. Default: the error's message. */
  errorText?(error: unknown, ...args: A): string | null;
  /**
   * Success leaves the view (another page, a closed dialog, another site): stay busy until it has
   * gone, so the button cannot be pressed twice on the way out.
   */
  leaves?: boolean;
}

export interface Submit<A extends unknown[]> {
  busy: boolean;
  error: string | null;
  /** A form's onSubmit handler. */
  submit(event: Event, ...args: A): Promise<void>;
  /** The same for a button outside a form, or a control that saves on change. */
  run(...args: A): Promise<void>;
}

/**
 * A write from a form or a button: busy while the request runs, the failure in words when it fails
 * (what was typed stays in the form's own state).
 */
export function useSubmit<A extends unknown[] = []>(
  work: (...args: A) => Promise<void>,
  options: SubmitOptions<A> = {},
): Submit<A> {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(...args: A) {
    setBusy(true);
    setError(null);
    try {
      await work(...args);
      if (options.leaves !== true) setBusy(false);
    } catch (e) {
      setError(options.errorText !== undefined ? options.errorText(e, ...args) : messageOf(e));
      setBusy(false);
    }
  }
  async function submit(event: Event, ...args: A) {
    event.preventDefault();
    await run(...args);
  }
  return { busy, error, submit, run };
}
