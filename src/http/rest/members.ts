import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { inviteMember, listMembers, removeMember, updateMember } from '../../domain/trees/members.js';
import { acceptInvitation, declineInvitation, listInvitations } from '../../domain/trees/invitations.js';
import { access } from '../access.js';
import { errors, IdParams, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import {
  AcceptInput,
  InvitationList,
  InviteInput,
  MemberInvited,
  MemberList,
  MemberOnly,
  MemberPatch,
} from '../schemas/teams.js';
import { warnWith } from '../logger.js';

const tags = ['Sharing'];

export const memberRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/trees/:id/members',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listMembers',
          tags,
          summary: 'Everyone invited to a tree',
          params: IdParams,
          headers: ReadHeaders,
          response: { 200: MemberList, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => listMembers(deps, request.actor!, request.params.id),
    );

    app.post(
      '/trees/:id/members',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'inviteMember',
          tags,
          summary: 'Invite an email as viewer or editor (owner, on Grove)',
          description:
            'An account that verified this email is bound at once; otherwise the invitation binds when an account with the email verifies it. ' +
            "`invite_url` is the invitation's one-time link, shown this once (and mailed to the address when mail is configured). " +
            'Without Grove: 403 plan_limit_reached with details [{limit: "sharing"}].',
          params: IdParams,
          body: InviteInput,
          headers: WriteHeaders,
          response: { 201: MemberInvited, ...errors(401, 403, 404, 409) },
        },
      },
      async (request, reply) =>
        reply
          .code(201)
          .send(
            await inviteMember(
              deps,
              request.actor!,
              request.params.id,
              request.body,
              warnWith(request.log, 'invitation mail failed'),
            ),
          ),
    );

    app.patch(
      '/members/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'updateMember',
          tags,
          summary: "Change a member's role or expiry (owner)",
          params: IdParams,
          body: MemberPatch,
          headers: WriteHeaders,
          response: { 200: MemberOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ member: await updateMember(deps, request.actor!, request.params.id, request.body ?? {}) }),
    );

    app.delete(
      '/members/:id',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'removeMember',
          tags,
          summary: 'Revoke a membership (owner) or leave a tree (the member)',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: MemberOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ member: await removeMember(deps, request.actor!, request.params.id) }),
    );

    app.get(
      '/invitations',
      {
        config: { access: access.read() },
        schema: {
          operationId: 'listInvitations',
          tags,
          summary: "The signed-in user's pending invitations",
          description: 'Only invitations to an email the account has verified; others are reached with their own link.',
          headers: ReadHeaders,
          response: { 200: InvitationList, ...errors(401, 403, 409) },
        },
      },
      async (request) => ({ items: await listInvitations(deps, request.actor!) }),
    );

    app.post(
      '/invitations/:id/accept',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'acceptInvitation',
          tags,
          summary: 'Accept an invitation',
          description:
            "Without a body: an invitation to the account's verified email. With `{token}` from its `invite_url`: that invitation, for whoever is signed in, once. " +
            "Anything else is 404; 409 conflict for the tree's owner or someone with another membership of the tree.",
          params: IdParams,
          body: AcceptInput,
          headers: WriteHeaders,
          response: { 200: MemberOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({
        member: await acceptInvitation(deps, request.actor!, request.params.id, request.body.token),
      }),
    );

    app.post(
      '/invitations/:id/decline',
      {
        config: { access: access.write() },
        schema: {
          operationId: 'declineInvitation',
          tags,
          summary: 'Decline an invitation',
          params: IdParams,
          headers: WriteHeaders,
          response: { 200: MemberOnly, ...errors(401, 403, 404, 409) },
        },
      },
      async (request) => ({ member: await declineInvitation(deps, request.actor!, request.params.id) }),
    );
  };
