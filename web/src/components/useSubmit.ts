import { useState } from 'preact/hooks';
import { messageOf } from './ErrorNote';

/**
 * A form's submit: busy while the request runs, the failure in words when it fails (what was
 * typed stays in the form's own state). `submit` is the form's onSubmit handler.
 */
export function useSubmit(work: () => Promise<void>): { busy: boolean; error: string | null; submit(event: Event): Promise<void> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, submit };
}
