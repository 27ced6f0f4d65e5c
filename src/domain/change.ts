import { newId } from './ids.js';

/**
 * A change (CONTRACT §16.3): what one request, MCP tool call, CLI command, CSV import, batch or
 * revert wrote. Each door mints one with its actor; the write runner stamps its id on every history
 * entry the change writes and marks it `written` once such a write has committed, which is what
 * the `Change-Id` header, MCP results and the agent call journal report.
 */
export interface Change {
  readonly id: string;
  /** Whether a write of this change that appended history has committed. */
  written: boolean;
}

export function newChange(): Change {
  return { id: newId('chg'), written: false };
}

/** The change id to report for a call: null when it wrote nothing. */
export function writtenChangeId(change: Change | undefined): string | null {
  return change !== undefined && change.written ? change.id : null;
}
