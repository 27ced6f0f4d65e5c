import { propertyValues, type Category } from './values.js';
import type { FuzzCase, Seeds } from './rest-cases.js';

export const MCP_PROTOCOL = '2025-11-25';
const OPERATION = 'POST /mcp';

interface Tool {
  name: string;
  inputSchema: { properties?: Record<string, { type?: string | string[] }>; required?: string[] };
}

const initialize = (clientName: unknown) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: MCP_PROTOCOL, capabilities: {}, clientInfo: { name: clientName, version: '1' } },
});

/** A plausible argument for a tool field: a seed for ids, else a short string or 1. */
function argument(tool: string, name: string, type: unknown, seeds: Seeds): unknown {
  if (name === 'id') return tool.includes('attachment') ? seeds.attachment : seeds.task;
  if (name === 'tree_id') return seeds.tree;
  if (name === 'task_id') return seeds.task;
  if (name === 'project_id') return seeds.project;
  if (name === 'attachment_id') return seeds.attachment;
  return type === 'integer' || type === 'number' ? 1 : type === 'boolean' ? false : 'fuzz';
}

/**
 * The MCP half of the fuzz: malformed JSON-RPC and session headers, hostile client names on
 * initialize, and every tool called with each argument replaced by each hostile value.
 */
export function mcpCases(tools: Tool[], seeds: Seeds, headers: Record<string, string>): FuzzCase[] {
  const json = {
    ...headers,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MCP_PROTOCOL,
  };
  const c = (
    category: Category,
    label: string,
    body: string | Buffer,
    extra: Record<string, string> = {},
  ): FuzzCase => ({
    operation: OPERATION,
    category,
    label,
    method: 'POST',
    path: '/mcp',
    headers: { ...json, ...extra },
    body,
  });
  const cases: FuzzCase[] = [
    c('malformed', 'truncated JSON', '{"jsonrpc": "2.0", "id": 1, "method": "tools/li'),
    c('wrong-type', 'array of numbers', '[1, 2, 3]'),
    c('wrong-type', 'empty batch', '[]'),
    c(
      'oversized',
      'batch of 500 pings',
      JSON.stringify(Array.from({ length: 500 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'ping' }))),
    ),
    c('wrong-type', 'null', 'null'),
    c('malformed', 'no jsonrpc field', JSON.stringify({ id: 1, method: 'tools/list' })),
    c('malformed', 'unknown method', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'no/such' })),
    c('wrong-type', 'params is a string', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'x' })),
    c('wrong-type', 'id is an object', JSON.stringify({ jsonrpc: '2.0', id: { a: 1 }, method: 'tools/list' })),
    c('nul', 'NUL method', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/\u0000list' })),
    c(
      'malformed',
      'percent-encoded NUL in session id',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      { 'mcp-session-id': 'x%00y' },
    ),
    c('oversized', '8000-char session id', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'mcp-session-id': 's'.repeat(8000),
    }),
    c('malformed', 'no session id', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'mcp-session-id': '',
    }),
    c('malformed', 'unknown protocol version header', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), {
      'mcp-protocol-version': '1999-01-01',
    }),
    c(
      'malformed',
      'resource read of a foreign uri',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'service://tree/%00' } }),
    ),
    c(
      'nul',
      'resource uri with NUL',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'resources/read',
        params: { uri: `service://tree/${seeds.tree}\u0000` },
      }),
    ),
    c('wrong-type', 'sent as text/plain', JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), {
      'content-type': 'text/plain',
    }),
    c(
      'malformed',
      'deep nesting',
      `{"jsonrpc":"2.0","id":1,"method":"ping","params":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    ),
  ];
  for (const value of propertyValues) {
    cases.push(
      c(value.category, `initialize clientInfo.name: ${value.label}`, JSON.stringify(initialize(value.value)), {
        'mcp-session-id': '',
      }),
    );
  }
  for (const tool of tools) {
    const properties = tool.inputSchema.properties ?? {};
    const valid: Record<string, unknown> = {};
    for (const name of tool.inputSchema.required ?? [])
      valid[name] = argument(tool.name, name, properties[name]?.type, seeds);
    const call = (args: unknown) =>
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: tool.name, arguments: args } });
    cases.push(c('valid', `tools/call ${tool.name} valid`, call(valid)));
    cases.push(c('wrong-type', `tools/call ${tool.name} arguments is an array`, call([1])));
    for (const name of [...Object.keys(properties), 'bogus']) {
      for (const value of propertyValues)
        cases.push(
          c(value.category, `tools/call ${tool.name} ${name}: ${value.label}`, call({ ...valid, [name]: value.value })),
        );
    }
  }
  return cases;
}
