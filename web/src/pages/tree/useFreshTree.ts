import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { history, trees } from '../../api/endpoints';
import { knownTag } from '../../api/versioned';
import type { HistoryEntry, TreeSnapshot } from '../../api/types';
import type { Loaded } from '../../components/useLoad';
import { hasUnsavedWork } from '../../components/useLeaveGuard';
import { isAgent } from '../changes/changeGroups';
import { mergeSnapshot } from './mergeSnapshot';

/** How often the open tree asks whether it changed (CONTRACT §16.4). */
export const REVALIDATE_MS = 5_000;
/** How long a leaf an agent just added or changed stays marked. */
export const FRESH_MS = 8_000;

/** A leaf an agent just added or changed, and the agent's name (its token's or OAuth client's). */
export interface FreshLeaf {
  agent: string;
  added: boolean;
  until: number;
}

/** The newest entry of each task among `ids`, when an agent wrote it: the agent's name. */
function agentsOf(entries: readonly HistoryEntry[], ids: ReadonlySet<string>, anAgent: string): Map<string, string> {
  const seen = new Set<string>();
  const agents = new Map<string, string>();
  for (const entry of entries) {
    if (entry.entity !== 'task' || !ids.has(entry.entity_id) || seen.has(entry.entity_id)) continue;
    seen.add(entry.entity_id);
    const stamp = {
      credentialId: entry.credential_id ?? null,
      client: entry.client ?? null,
      via: entry.via,
    };
    if (isAgent(stamp)) agents.set(entry.entity_id, stamp.client ?? anAgent);
  }
  return agents;
}

/**
 * Keeps the open tree fresh: while the page is visible, `GET /trees/{id}` with If-None-Match every
 * 5 seconds (a 304 costs nothing and changes nothing on the page); a new snapshot is merged so
 * only what changed is drawn again. Leaves an agent added or changed are returned for a few
 * seconds with the agent's name, read from the newest history page.
 *
 * `editing` names the records with unsaved edits (the open task): they stay as the person saw them.
 */
export function useFreshTree(
  id: string,
  snapshot: Loaded<TreeSnapshot>,
  editing: () => ReadonlySet<string>,
  anAgent: string,
): { fresh: ReadonlyMap<string, FreshLeaf>; revalidate(): Promise<void> } {
  const latest = useRef(snapshot.data);
  latest.current = snapshot.data;
  const tag = useRef<{ tree: string; etag: string } | null>(null);
  const running = useRef(false);
  /** Asked again while a round ran (after an undo): one more round follows it. */
  const again = useRef(false);
  const [fresh, setFresh] = useState<ReadonlyMap<string, FreshLeaf>>(new Map());
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const setData = snapshot.setData;

  const mark = useCallback(
    async (added: string[], changed: string[]) => {
      const ids = new Set([...added, ...changed]);
      const page = await history.page(id);
      const agents = agentsOf(page.items, ids, anAgent);
      if (agents.size === 0) return;
      const until = Date.now() + FRESH_MS;
      setFresh((old) => {
        const next = new Map(old);
        for (const [taskId, agent] of agents) next.set(taskId, { agent, added: added.includes(taskId), until });
        return next;
      });
    },
    [id, anAgent],
  );

  const revalidate = useCallback(async () => {
    if (running.current) {
      again.current = true;
      return;
    }
    const before = latest.current;
    if (before === null || before.tree.id !== id) return;
    running.current = true;
    try {
      const etag = tag.current?.tree === id ? tag.current.etag : knownTag('tree', id);
      if (etag === undefined) return;
      const answer = await trees.revalidate(id, etag);
      if (answer === null) return;
      const keep = hasUnsavedWork() ? editingRef.current() : new Set<string>();
      const merged = mergeSnapshot(before, answer.snapshot, keep);
      const outcome = { applied: false };
      // The page may have written meanwhile (its own answer is newer): then this reading is dropped
      // and the next round, whose tag differs, brings the tree as it is.
      setData((now) => {
        if (now !== before) return now;
        outcome.applied = true;
        return merged.snapshot;
      });
      if (outcome.applied && merged.complete) tag.current = { tree: id, etag: answer.etag };
      if (outcome.applied && merged.added.length + merged.changed.length > 0)
        await mark(merged.added, merged.changed).catch(() => undefined);
    } catch {
      // A failed round changes nothing; the next one tries again (a dead session is routed to sign in by the client).
    } finally {
      running.current = false;
      if (again.current) {
        again.current = false;
        // After the page has drawn this round's answer, which the next round compares against.
        setTimeout(() => void revalidate(), 0);
      }
    }
  }, [id, setData, mark]);

  useEffect(() => {
    const visible = () => document.visibilityState === 'visible';
    const timer = setInterval(() => {
      if (visible()) void revalidate();
    }, REVALIDATE_MS);
    // Back in view: at once, not at the next tick.
    const onVisibility = () => {
      if (visible()) void revalidate();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [revalidate]);

  // Marks go when their time is up.
  useEffect(() => {
    if (fresh.size === 0) return;
    const soonest = Math.min(...[...fresh.values()].map((x) => x.until));
    const timer = setTimeout(
      () => {
        const now = Date.now();
        setFresh((old) => new Map([...old].filter(([, x]) => x.until > now)));
      },
      Math.max(0, soonest - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [fresh]);

  return { fresh, revalidate };
}
