// The MCP App's reading of what the host hands it (web/src/mcp-app): get_tree's snapshot from its
// structured content or its text, a tool error's message, and the host's language.
import { describe, expect, it } from 'vitest';

// Loaded untyped: the root tsconfig that checks this file resolves imports Node's way, and the
// web modules import without extensions; web/tsconfig.json checks them.
const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { shownOf } = await load('../../web/src/mcp-app/shown.ts');
const { fill, languageOf, wordsOf } = await load('../../web/src/mcp-app/words.ts');

const snapshot = {
  tree: { id: 'tre_1', name: 'Orchard', style: 'lsystem' },
  projects: [],
  tasks: [{ id: 'tsk_1', title: 'Prune', status: 'open' }],
};

describe('the MCP App', () => {
  it("reads get_tree's snapshot from its structured content, or from its text when a host drops that", () => {
    const text = [{ type: 'text', text: JSON.stringify(snapshot) }];
    expect(shownOf({ structuredContent: snapshot, content: text })).toEqual({ kind: 'tree', snapshot });
    expect(shownOf({ content: text })).toEqual({ kind: 'tree', snapshot });
  });

  it("says a tool error's message, and refuses what is not a tree", () => {
    const error = { error: { code: 'not_found', message: 'No tree tre_x is accessible.' } };
    expect(shownOf({ isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] })).toEqual({
      kind: 'failed',
      message: 'No tree tre_x is accessible.',
    });
    expect(shownOf({ isError: true, content: [{ type: 'text', text: 'boom' }] })).toEqual({
      kind: 'failed',
      message: 'boom',
    });
    for (const result of [{}, { content: [{ type: 'text', text: '{' }] }, { structuredContent: { tree: {} } }])
      expect(shownOf(result).kind).toBe('failed');
  });

  it("speaks the host's language when it is ours, else English", () => {
    expect(['ru', 'ru-RU', 'RU-ru', 'en-GB', 'de', undefined, ''].map(languageOf)).toEqual([
      'ru',
      'ru',
      'ru',
      'en',
      'en',
      'en',
      'en',
    ]);
    expect(wordsOf('ru').status.done).toBe('Готово');
    expect(fill('{{label}}, overdue: {{label}} {{other}}', { label: '$& <b>' })).toBe(
      '$& <b>, overdue: $& <b> {{other}}',
    );
  });
});
