import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Billing, Plan } from '../../api/types';
import type { Loaded } from '../../components/useLoad';

const POLL_MS = 1500;
const MAX_POLLS = 20;

export type ReturnState =
  { kind: 'none' } | { kind: 'cancelled' } | { kind: 'waiting' | 'confirmed' | 'slow'; plan: Plan };

function isPaidPlan(value: string | undefined): value is 'sprout' | 'grove' {
  return value === 'sprout' || value === 'grove';
}

/**
 * Back from the hosted checkout (`?checkout=success&plan=…`): the plan changes only when the
 * provider's webhook arrives, which may be a moment later. So the page asks again every 1.5 s
 * until it shows the plan bought, at most 20 times, then says it is slow: never a reload loop.
 * The query is read once and removed from the address bar, so a reload starts clean.
 */
export function useCheckoutReturn(info: Loaded<Billing>, onConfirmed: () => void): ReturnState {
  const { query } = useLocation();
  const [state, setState] = useState<ReturnState>(() => {
    if (query.checkout === 'cancelled') return { kind: 'cancelled' };
    if (query.checkout === 'success' && isPaidPlan(query.plan)) return { kind: 'waiting', plan: query.plan };
    return { kind: 'none' };
  });
  const polls = useRef(0);

  useEffect(() => {
    if (query.checkout !== undefined) history.replaceState(null, '', location.pathname);
  }, []);

  useEffect(() => {
    if (state.kind !== 'waiting' || info.data === null) return undefined;
    if (info.data.plan === state.plan) {
      setState({ kind: 'confirmed', plan: state.plan });
      onConfirmed();
      return undefined;
    }
    if (polls.current >= MAX_POLLS) {
      setState({ kind: 'slow', plan: state.plan });
      return undefined;
    }
    const timer = setTimeout(() => {
      polls.current += 1;
      void info.reload();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [info.data, state.kind]);

  return state;
}
