import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { revertChange, revertTreeChanges } from '../../domain/trees/revert.js';
import { access } from '../access.js';
import { errors, IdParams, WriteHeaders } from '../schemas/common.js';
import { RevertChangeInput, RevertQuery, RevertResult, RevertTreeInput, TreeRevertResult } from '../schemas/changes.js';

const tags = ['Changes'];

/** Undoing changes (CONTRACT §16.3): one change by its id, or one credential's changes in a tree since a moment. */
export const changeRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.post(
      '/changes/:id/revert',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'revertChange',
          tags,
          summary: 'Undo one change',
          description:
            "Undoes the change's history entries newest first, in one transaction: created records are deleted, fields set back, deleted records restored with their ids. " +
            'The revert is a change of its own (its entries name the undone change in `reverts`); reverting it redoes the change. ' +
            'Entries of comments, messages, attachments and members are listed in `skipped` and left as they are. ' +
            'Needs write access to every tree the change touched (owner or editor). ' +
            '409 revert_conflict when a record it touched was changed again later (details name the later changes; force=true proceeds); ' +
            '409 conflict when it was reverted already; 404 when unknown, foreign, outside the credential’s trees or purged with the history window; ' +
            '403 plan_limit_reached when restoring would pass a plan limit. Nothing changes on any failure.',
          params: IdParams,
          querystring: RevertQuery,
          body: RevertChangeInput,
          headers: WriteHeaders,
          response: { 200: RevertResult, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => revertChange(deps, request.actor!, request.params.id, { force: request.query.force === true }),
    );

    app.post(
      '/trees/:id/revert',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'revertTreeChanges',
          tags,
          summary: "Undo a credential's changes in a tree since a moment",
          description:
            'Undoes every change the personal token or OAuth grant made in this tree at or after `since` (changes reverted already are left out), newest first, in one transaction, ' +
            'with the conflict rule of one change: a later change by anyone else on a record they touched is 409 revert_conflict unless force=true. ' +
            'Nothing to undo: 200 with reverted 0 and no change written.',
          params: IdParams,
          querystring: RevertQuery,
          body: RevertTreeInput,
          headers: WriteHeaders,
          response: { 200: TreeRevertResult, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) =>
        revertTreeChanges(deps, request.actor!, request.params.id, request.body, {
          force: request.query.force === true,
        }),
    );
  };
