// @vitest-environment happy-dom
// The tree's 10,000 labels come from one translated pattern (messageTemplate): each label must be
// exactly what i18next itself would have said, in either language, whatever the title holds.
import { describe, expect, it } from 'vitest';
import { messageTemplate } from '../../web/src/i18n/template.js';

// The i18n module is loaded untyped: it touches the DOM, and the root tsconfig that checks this
// file is for Node; web/tsconfig.json checks the module itself.
const load = (path: string): Promise<any> => import(/* @vite-ignore */ path);
const { i18n, initI18n, setLanguage } = await load('../../web/src/i18n/index.ts');

const titles = ['Mend the gate', '{{status}} $& $1 <b>', 'Задача «А»', '', 'a\u0000b'];

describe('messageTemplate', () => {
  it.each(['en', 'ru'] as const)('says what i18next says, in %s', async (language) => {
    await initI18n(language);
    await setLanguage(language);
    const label = messageTemplate((values): string => i18n.t('tree.taskLabel', values), ['title', 'status'] as const);
    for (const title of titles) {
      const status = i18n.t('status.done');
      expect(label({ title, status })).toBe(i18n.t('tree.taskLabel', { title, status }));
    }
    expect(label({ title: 'Mend the gate', status: 'x' })).toContain('Mend the gate');
  });

  it('keeps the text around the values, a value used twice, and a message without values', () => {
    const twice = messageTemplate((v) => `«${v.name}» and again ${v.name}: ${v.count}.`, ['name', 'count'] as const);
    expect(twice({ name: 'Oak', count: '3' })).toBe('«Oak» and again Oak: 3.');
    expect(messageTemplate(() => 'No values', ['name'] as const)({ name: 'Oak' })).toBe('No values');
  });
});
