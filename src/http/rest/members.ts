import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Deps } from '../../domain/deps.js';
import { inviteMember, listMembers, removeMember, updateMember } from '../../domain/trees/members.js';
import { acceptInvitation, declineInvitation, listInvitations } from '../../domain/trees/invitations.js';
import { access } from '../access.js';
import { errors, IdParams, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import { InvitationList, InviteInput, MemberList, MemberOnly, MemberPatch } from '../schemas/teams.js';

const tags = ['Sharing'];

export const memberRoutes = (deps: Deps): FastifyPluginAsyncTypebox => async (app) => {
  app.get('/trees/:id/members', {
    config: { access: access.read() },
    schema: { operationId: 'listMembers', tags, summary: 'Everyone invited to a tree', params: IdParams, headers: ReadHeaders, response: { 200: MemberList, ...errors(401, 403, 404, 409) } },
  }, async (request) => ({ items: await listMembers(deps, request.actor!, request.params.id) }));

  app.post('/trees/:id/members', {
    config: { access: access.write() },
    schema: {
      operationId: 'inviteMember', tags, summary: 'Invite an email as viewer or editor (owner, on Grove)',
      description: 'An existing account is bound at once; otherwise the invitation binds when the email registers. Without Grove: 403 plan_limit_reached with details [{limit: "sharing"}].',
      params: IdParams, body: InviteInput, headers: WriteHeaders, response: { 201: MemberOnly, ...errors(401, 403, 404, 409) },
    },
  }, async (request, reply) => reply.code(201).send({ member: await inviteMember(deps, request.actor!, request.params.id, request.body) }));

  app.patch('/members/:id', {
    config: { access: access.write() },
    schema: { operationId: 'updateMember', tags, summary: 'Change a member\'s role or expiry (owner)', params: IdParams, body: MemberPatch, headers: WriteHeaders, response: { 200: MemberOnly, ...errors(401, 403, 404, 409) } },
  }, async (request) => ({ member: await updateMember(deps, request.actor!, request.params.id, request.body ?? {}) }));

  app.delete('/members/:id', {
    config: { access: access.write() },
    schema: { operationId: 'removeMember', tags, summary: 'Revoke a membership (owner) or leave a tree (the member)', params: IdParams, headers: WriteHeaders, response: { 200: MemberOnly, ...errors(401, 403, 404, 409) } },
  }, async (request) => ({ member: await removeMember(deps, request.actor!, request.params.id) }));

  app.get('/invitations', {
    config: { access: access.read() },
    schema: { operationId: 'listInvitations', tags, summary: 'The signed-in user\'s pending invitations', headers: ReadHeaders, response: { 200: InvitationList, ...errors(401, 403, 409) } },
  }, async (request) => ({ items: await listInvitations(deps, request.actor!) }));

  app.post('/invitations/:id/accept', {
    config: { access: access.write() },
    schema: { operationId: 'acceptInvitation', tags, summary: 'Accept an invitation', params: IdParams, headers: WriteHeaders, response: { 200: MemberOnly, ...errors(401, 403, 404, 409) } },
  }, async (request) => ({ member: await acceptInvitation(deps, request.actor!, request.params.id) }));

  app.post('/invitations/:id/decline', {
    config: { access: access.write() },
    schema: { operationId: 'declineInvitation', tags, summary: 'Decline an invitation', params: IdParams, headers: WriteHeaders, response: { 200: MemberOnly, ...errors(401, 403, 404, 409) } },
  }, async (request) => ({ member: await declineInvitation(deps, request.actor!, request.params.id) }));
};
