import type { Client } from './client.js';

/** Small builders over the real REST API, failing loudly when the service refuses. */
async function created<T>(answer: Promise<{ status: number; body: any; text: string }>, key: string): Promise<T> {
  const result = await answer;
  if (result.status !== 201) throw new Error(`expected 201, got ${result.status} ${result.text}`);
  return result.body[key] as T;
}

export function makeTree(client: Client, body: Record<string, unknown> = {}): Promise<any> {
  return created(client.post('/api/v1/trees', { name: 'Garden', ...body }), 'tree');
}

export function makeProject(client: Client, treeId: string, body: Record<string, unknown> = {}): Promise<any> {
  return created(client.post('/api/v1/projects', { tree_id: treeId, name: 'Beds', ...body }), 'project');
}

export function makeTask(client: Client, treeId: string, body: Record<string, unknown> = {}): Promise<any> {
  return created(client.post('/api/v1/tasks', { tree_id: treeId, title: 'Water the roses', ...body }), 'task');
}
