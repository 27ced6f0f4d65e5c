// What the App shows, read from the tool result the host hands it: get_tree's snapshot (its
// structured content, or the same JSON as its text block), or why there is none.
import type { TreeSnapshot } from '../api/types';

export type Shown =
  | { kind: 'waiting' }
  | { kind: 'tree'; snapshot: TreeSnapshot }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/** The parts of a CallToolResult read here. */
export interface ToolResultLike {
  isError?: boolean;
  structuredContent?: unknown;
  content?: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isSnapshot(value: unknown): value is TreeSnapshot {
  if (!isObject(value) || !isObject(value.tree)) return false;
  const { tree, projects, tasks } = value;
  return (
    typeof tree.id === 'string' && typeof tree.name === 'string' && Array.isArray(projects) && Array.isArray(tasks)
  );
}

function firstText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const block: unknown = content.find((c) => isObject(c) && c.type === 'text' && typeof c.text === 'string');
  return isObject(block) ? (block.text as string) : undefined;
}

function parsed(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A tool error carries CONTRACT §1's `{"error": {code, message}}` as its text (CONTRACT §17). */
function errorMessage(result: ToolResultLike): string {
  const text = firstText(result.content);
  const body = parsed(text);
  if (isObject(body) && isObject(body.error) && typeof body.error.message === 'string') return body.error.message;
  return text ?? 'unknown error';
}

export function shownOf(result: ToolResultLike): Shown {
  if (result.isError === true) return { kind: 'failed', message: errorMessage(result) };
  const value = result.structuredContent ?? parsed(firstText(result.content));
  return isSnapshot(value) ? { kind: 'tree', snapshot: value } : { kind: 'failed', message: 'not a tree' };
}
