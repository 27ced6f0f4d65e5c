import { Type } from '@sinclair/typebox';
import { Id, Nullable } from './common.js';

/** Changes and undo (CONTRACT §16.3). */

export const RevertQuery = Type.Object({
  force: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Undo even when a record was changed again later, putting back only the fields this change wrote',
    }),
  ),
});

/** `POST /changes/{id}/revert` takes no body: empty or `{}`. */
export const RevertChangeInput = Type.Object({}, { additionalProperties: false, title: 'RevertChangeInput' });

export const RevertTreeInput = Type.Object(
  {
    credential_id: Type.String({
      minLength: 1,
      maxLength: 160,
      description: 'The personal token (pat_…) or OAuth grant whose changes to undo',
    }),
    since: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'ISO 8601 date-time with a time zone: changes at or after it are undone',
      examples: ['2026-11-27T14:00:00Z'],
    }),
  },
  { additionalProperties: false, title: 'RevertTreeInput' },
);

const SkippedEntry = Type.Object({
  entity: Type.String({ description: 'comment, message, attachment or member (entries a revert leaves as they are)' }),
  entity_id: Type.String(),
  action: Type.String(),
});

const revertFields = {
  change_id: Nullable(
    Type.String({ description: 'The revert’s own change (chg_…); null when it undid nothing and wrote nothing' }),
  ),
  reverted: Type.Integer({ minimum: 0, description: 'How many history entries were undone' }),
  skipped: Type.Array(SkippedEntry, { description: 'Entries left as they are' }),
};

export const RevertResult = Type.Object(revertFields, { title: 'RevertResult' });

export const TreeRevertResult = Type.Object(
  { ...revertFields, changes: Type.Array(Id, { description: 'The changes undone, newest first' }) },
  { title: 'TreeRevertResult' },
);
