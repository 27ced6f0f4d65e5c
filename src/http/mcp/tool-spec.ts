import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Capability, Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { writtenChangeId } from '../../domain/change.js';
import { INTERNAL_MESSAGE, validationDetails } from '../errors.js';
import type { ToolInput } from './schemas.js';
import { itemDetails, withoutOp } from '../batch-details.js';

/** One MCP tool: the capability that shows it, its REST-derived schemas, and the one domain call it makes. */
export interface ToolSpec {
  definition: Tool;
  capability: Capability;
  run(deps: Deps, actor: Actor, args: unknown): Promise<CallToolResult>;
}

/**
 * The JSON of the structured content of each result `ok` made: its text block, the same JSON,
 * so the fast path (fast-path.ts) writes it out without serializing the value a second time.
 */
const structuredJson = new WeakMap<CallToolResult, string>();

/** The JSON of a result's structured content, serialized when `ok` made the result, else now. */
export function structuredJsonOf(result: CallToolResult): string {
  return structuredJson.get(result) ?? JSON.stringify(result.structuredContent);
}

/**
 * A domain result as MCP wants it: structured content plus the same JSON as text. Members are
 * in the order the SDK's result schema puts them (content, structuredContent, isError), which is
 * the order its answers have.
 */
export function ok(value: object): CallToolResult {
  const text = JSON.stringify(value);
  const result: CallToolResult = {
    content: [{ type: 'text', text }],
    structuredContent: value as Record<string, unknown>,
  };
  structuredJson.set(result, text);
  return result;
}

/**
 * A refusal as a tool error (CONTRACT §17 "Tool errors"): CONTRACT §1's `{error: {code, message,
 * details?}}` as the one text block, and no `structuredContent`. The official SDK clients check
 * any structured content against the tool's `outputSchema`, errors included (1.x does), and
 * would turn an error object there into the protocol error -32602, losing the code.
 */
export function toolError(code: string, message: string, details?: unknown[]): CallToolResult {
  const error = { code, message, ...(details !== undefined ? { details } : {}) };
  return { content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true };
}

/** What a tool reports when something broke on our side: the cause goes to the log, never to the client. */
export type ReportInternal = (err: unknown) => void;

/** How a tool answers besides its domain call's value. */
export interface ToolOptions {
  /**
   * A write (CONTRACT §16.3): its result carries `change_id`, the change the call wrote (null
   * when it changed nothing).
   */
  writes?: boolean;
  /**
   * A batch (CONTRACT §17): the property of the arguments that holds its items; details of an
   * error inside an item name it by `index`, with the path inside the item.
   */
  items?: string;
}

export function tool<T>(
  capability: Capability,
  definition: Omit<Tool, 'inputSchema' | 'outputSchema'> & { outputSchema: Record<string, unknown> },
  input: ToolInput<T>,
  call: (deps: Deps, actor: Actor, args: T) => Promise<object>,
  options: ToolOptions = {},
): ToolSpec {
  const { items, writes = false } = options;
  const listed = { ...definition, inputSchema: input.json } as Tool;
  return {
    definition: listed,
    capability,
    async run(deps, actor, args) {
      // Arguments are checked as a REST body is: exact types, bounds, no unknown properties.
      if (!input.check(args)) {
        const found = validationDetails(input.check.errors ?? [], 'body');
        const details =
          items === undefined
            ? found.map(({ path, message }) => ({ path, message }))
            : itemDetails(found, { [items]: undefined });
        const first = details[0] as { index?: number; path?: string; message?: string } | undefined;
        const where = first?.index !== undefined ? `${items} item ${first.index} ` : 'arguments ';
        return toolError(
          'validation_failed',
          `${where}${first?.path ?? '/'} ${first?.message ?? 'are invalid'}`,
          details,
        );
      }
      try {
        const value = await call(deps, actor, args);
        return ok(writes ? { ...value, change_id: writtenChangeId(actor.change) } : value);
      } catch (err) {
        if (err instanceof DomainError)
          return toolError(
            err.code,
            err.message,
            items !== undefined && err.details !== undefined ? withoutOp(err.details) : err.details,
          );
        throw err;
      }
    },
  };
}

export const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/** A failure that is not the client's and not a domain rule: reported, and answered without its cause. */
export function internalFailure(report: ReportInternal | undefined, err: unknown): CallToolResult {
  report?.(err);
  return toolError('internal_error', INTERNAL_MESSAGE);
}
