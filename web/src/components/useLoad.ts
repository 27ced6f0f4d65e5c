import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { messageOf } from './ErrorNote';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload(): Promise<void>;
  /** Replace the data after a write answered with the new state, without another round trip. */
  setData(update: (data: T | null) => T | null): void;
}

/** A read with explicit loading, error and data branches; an answer to an older call is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setDataState] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const run = useCallback(load, deps);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await run();
      if (mine !== generation.current) return;
      setDataState(value);
      setError(null);
    } catch (e) {
      if (mine === generation.current) setError(messageOf(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
  }, [run]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload, setData: setDataState };
}
