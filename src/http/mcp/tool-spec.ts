import type { CallToolResult, Tool, ToolAnnotations } from '@modelcontextprotocol/server';
import type { Capability, Actor } from '../../domain/actor.js';
import type { Deps } from '../../domain/deps.js';
import { DomainError } from '../../domain/errors.js';
import { INTERNAL_MESSAGE, validationDetails } from '../errors.js';
import type { ToolInput } from './schemas.js';

/** One MCP tool: the capability that shows it, its REST-derived schemas, and the one domain call it makes. */
export interface ToolSpec {
  definition: Tool;
  capability: Capability;
  run(deps: Deps, actor: Actor, args: unknown): Promise<CallToolResult>;
}

/** A domain result as MCP wants it: structured content plus the same JSON as text. */
export function ok(value: object): CallToolResult {
  return {
    structuredContent: value as Record<string, unknown>,
    content: [{ type: 'text', text: JSON.stringify(value) }],
  };
}

/**
 * A refusal as a tool error (CONTRACT §17 "Tool errors"): CONTRACT §1's `{error: {code, message,
 * details?}}` as the one text block, and no `structuredContent`. The official SDK clients check
 * any structured content against the tool's `outputSchema`, errors included (1.x does), and
 * would turn an error object there into the protocol error -32602, losing the code.
 */
export function toolError(code: string, message: string, details?: unknown[]): CallToolResult {
  const error = { code, message, ...(details !== undefined ? { details } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** What a tool reports when something broke on our side: the cause goes to the log, never to the client. */
export type ReportInternal = (err: unknown) => void;

export function tool<T>(
  capability: Capability,
  definition: Omit<Tool, 'inputSchema' | 'outputSchema'> & { outputSchema: Record<string, unknown> },
  input: ToolInput<T>,
  call: (deps: Deps, actor: Actor, args: T) => Promise<object>,
): ToolSpec {
  const listed = { ...definition, inputSchema: input.json } as Tool;
  return {
    definition: listed,
    capability,
    async run(deps, actor, args) {
      // Arguments are checked as a REST body is: exact types, bounds, no unknown properties.
      if (!input.check(args)) {
        const details = validationDetails(input.check.errors ?? [], 'body').map(({ path, message }) => ({
          path,
          message,
        }));
        return toolError(
          'validation_failed',
          `arguments ${details[0]?.path ?? '/'} ${details[0]?.message ?? 'are invalid'}`,
          details,
        );
      }
      try {
        return ok(await call(deps, actor, args));
      } catch (err) {
        if (err instanceof DomainError) return toolError(err.code, err.message, err.details);
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
