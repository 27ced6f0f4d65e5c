import type { App } from '../../src/app.js';
import { makeToken, makeUser } from '../helpers/factories.js';
import { makeTask, makeTree } from '../helpers/data.js';

/** A Sprout user with a token of these scopes and a tree holding one task: who the MCP tests call as. */
export async function someone(t: { url: string; app: App }, scopes: string[]) {
  const person = await makeUser(t.url, t.app, { plan: 'sprout' });
  const made = await makeToken(person, { scopes });
  const tree = await makeTree(person.browser);
  const task = await makeTask(person.browser, tree.id, { title: `task of ${person.email}` });
  return { person, token: made.value, tokenId: made.token.id, tree, task };
}
