import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { Project, Task, Tree } from './data.js';

export const HistoryEntry = Type.Object(
  {
    id: Type.String(),
    at: Timestamp,
    tree_id: Type.String(),
    actor_id: Type.String(),
    via: Type.String({ description: 'session, token, oauth, mcp or cli' }),
    entity: Type.String(),
    entity_id: Type.String(),
    action: Type.String({ description: 'created, updated, deleted, moved, completed, imported, …' }),
    changes: Type.Record(Type.String(), Type.Object({ from: Type.Unknown(), to: Type.Unknown() })),
  },
  { $id: 'HistoryEntry', title: 'HistoryEntry' },
);

export const TreeExport = Type.Object(
  {
    schema_version: Type.Literal(1),
    exported_at: Timestamp,
    tree: Tree,
    projects: Type.Array(Project),
    tasks: Type.Array(Task, { description: 'every retained task, archived included' }),
    comments: Type.Array(Type.Unknown()),
    messages: Type.Array(Type.Unknown()),
    history: Type.Array(HistoryEntry, { description: "entries inside the owner's plan window" }),
    attachments: Type.Array(Type.Unknown(), { description: 'metadata only; content through the attachment endpoints' }),
  },
  { $id: 'TreeExport', title: 'TreeExport' },
);
