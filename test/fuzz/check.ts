import type { Category } from './values.js';
import type { FuzzCase } from './rest-cases.js';

export type Problem = '5xx' | 'off-contract' | 'no-answer';

export interface Finding {
  operation: string;
  category: Category;
  label: string;
  status: number | null;
  problem: Problem;
  excerpt: string;
}

export interface Report {
  requests: number;
  findings: Finding[];
}

const SNAKE = /^[a-z][a-z0-9_]*$/;
/** 503 is in the contract for what is not configured; every other 5xx is a defect. */
const CONTRACT_5XX = new Set(['speech_unavailable', 'billing_unavailable']);

/** CONTRACT §1: exactly `{error: {code, message, details?, request_id}}`, the id also in X-Request-Id. */
export function isContractError(body: any, requestId: string | null): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).join() !== 'error')
    return false;
  const error = body.error;
  if (error === null || typeof error !== 'object') return false;
  const keys = Object.keys(error).filter((k) => !['code', 'message', 'details', 'request_id'].includes(k));
  return (
    keys.length === 0 &&
    typeof error.code === 'string' &&
    SNAKE.test(error.code) &&
    typeof error.message === 'string' &&
    (error.details === undefined || Array.isArray(error.details)) &&
    typeof error.request_id === 'string' &&
    error.request_id === requestId
  );
}

/**
 * /mcp speaks JSON-RPC (CONTRACT §9): an HTTP failure there is a JSON-RPC error object; it
 * counts as in contract when it carries the §1 code and request id in `error.data`.
 */
function isMcpError(body: any, requestId: string | null): boolean {
  const error = body?.error;
  return (
    body?.jsonrpc === '2.0' &&
    typeof error?.code === 'number' &&
    typeof error?.message === 'string' &&
    typeof error?.data?.code === 'string' &&
    error?.data?.request_id === requestId
  );
}

/**
 * CONTRACT §17 "Tool errors": a tool error result holds one text block with the §1 error object
 * as JSON and no structured content (which the SDK clients would check against the tool's
 * output schema and turn into a protocol error).
 */
function isToolError(result: any): boolean {
  if (result.structuredContent !== undefined || !Array.isArray(result.content) || result.content.length !== 1)
    return false;
  const [block] = result.content;
  if (block?.type !== 'text' || typeof block.text !== 'string') return false;
  let parsed: any;
  try {
    parsed = JSON.parse(block.text);
  } catch {
    return false;
  }
  const error = parsed?.error;
  return (
    Object.keys(parsed ?? {}).join() === 'error' &&
    typeof error?.code === 'string' &&
    SNAKE.test(error.code) &&
    typeof error.message === 'string' &&
    Object.keys(error).every((k) => ['code', 'message', 'details'].includes(k)) &&
    (error.details === undefined || Array.isArray(error.details))
  );
}

/** The problem with one answer, or null when it keeps the contract. */
export function judge(fuzzCase: FuzzCase, status: number, body: any, requestId: string | null): Problem | null {
  const code = body?.error?.code ?? body?.error?.data?.code;
  if (status >= 500 && !(status === 503 && CONTRACT_5XX.has(code))) return '5xx';
  if (fuzzCase.path === '/mcp' && body?.result?.isError === true && !isToolError(body.result)) return 'off-contract';
  if (status < 400) return null;
  const inContract =
    fuzzCase.path === '/mcp'
      ? isMcpError(body, requestId) || isContractError(body, requestId)
      : isContractError(body, requestId);
  return inContract ? null : 'off-contract';
}

/** Sends the cases a few at a time over real sockets and collects what broke the contract. */
export async function runCases(
  baseUrl: string,
  cases: FuzzCase[],
  concurrency = 4,
  timeoutMs = 15_000,
): Promise<Report> {
  const findings: Finding[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++]!;
      const finding = (status: number | null, problem: Problem, excerpt: string) =>
        findings.push({
          operation: fuzzCase.operation,
          category: fuzzCase.category,
          label: fuzzCase.label,
          status,
          problem,
          excerpt: excerpt.slice(0, 300),
        });
      try {
        const response = await fetch(baseUrl + fuzzCase.path, {
          method: fuzzCase.method,
          headers: fuzzCase.headers,
          body: fuzzCase.body,
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
        const text = await response.text();
        let body: unknown = null;
        try {
          body = text === '' ? null : JSON.parse(text);
        } catch {
          body = text;
        }
        const problem = judge(fuzzCase, response.status, body, response.headers.get('x-request-id'));
        if (problem !== null) finding(response.status, problem, text);
      } catch (err) {
        finding(
          null,
          'no-answer',
          err instanceof Error
            ? `${err.name}: ${err.message} ${String((err as { cause?: unknown }).cause ?? '')}`
            : String(err),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { requests: cases.length, findings };
}
