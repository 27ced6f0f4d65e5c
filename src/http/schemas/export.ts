import { Type } from '@sinclair/typebox';
import { Timestamp } from './common.js';
import { Project, Task, Tree } from './data.js';
import { Comment, HistoryEntry, Message } from './teams.js';

export const TreeExport = Type.Object(
  {
    schema_version: Type.Literal(1),
    exported_at: Timestamp,
    tree: Tree,
    projects: Type.Array(Project),
    tasks: Type.Array(Task, { description: 'every retained task, archived included' }),
    comments: Type.Array(Comment),
    messages: Type.Array(Message),
    history: Type.Array(HistoryEntry, { description: "entries inside the owner's plan window" }),
    attachments: Type.Array(Type.Unknown(), { description: 'metadata only; content through the attachment endpoints' }),
  },
  { $id: 'TreeExport', title: 'TreeExport' },
);
