import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { presentUser, registerUser, updateProfile, verifyLogin } from '../../domain/accounts/accounts.js';
import { csrfFor, endSession, newSessionId, startSession } from '../../domain/accounts/sessions.js';
import { completePasswordReset, requestPasswordReset } from '../../domain/accounts/password-reset.js';
import { completeEmailVerification, requestEmailVerification } from '../../domain/accounts/email-verification.js';
import { changeEmail, changePassword, deleteAccount } from '../../domain/accounts/account-changes.js';
import { access } from '../access.js';
import { setSessionCookie } from '../session-cookie.js';
import { warnWith } from '../logger.js';
import { errors, ReadHeaders, WriteHeaders } from '../schemas/common.js';
import {
  AccountDeleteInput,
  EmailChangeInput,
  LoginInput,
  PasswordChangeInput,
  MailAnswer,
  Me,
  ProfileInput,
  RegisterInput,
  ResetCompleteInput,
  ResetRequestAnswer,
  ResetRequestInput,
  UserOnly,
  UserWithCsrf,
  VerifyCompleteInput,
} from '../schemas/accounts.js';

const tags = ['Account'];

export const authRoutes =
  (deps: Deps): FastifyPluginAsyncTypebox =>
  async (app) => {
    const secure = deps.config.publicUrl.startsWith('https://');

    /** Replaces the browser session (no fixation): the old one ends, a new id and CSRF value are issued. */
    async function rotateSession(request: FastifyRequest, reply: FastifyReply, userId: string | null): Promise<string> {
      if (request.sessionId !== null) await endSession(deps, request.sessionId);
      const id = userId === null ? newSessionId() : await startSession(deps, userId);
      setSessionCookie(reply, id, secure);
      return csrfFor(deps.config.secret, id);
    }

    app.get(
      '/auth/me',
      {
        config: { access: access.anyone },
        schema: {
          operationId: 'getMe',
          tags,
          summary: 'The signed-in user; bootstraps the CSRF value of a browser session',
          description:
            'Works without credentials (user null). Without a session cookie, an anonymous session is started and its cookie set.',
          headers: ReadHeaders,
          response: { 200: Me, ...errors(401, 409) },
        },
        // Not async: it never waits, and Fastify sends a plain return value without a promise's turn.
      },
      (request, reply) => {
        const user = request.actor === null ? null : presentUser(request.actor.user);
        if (request.credential === 'bearer') return { user };
        let sessionId = request.sessionId;
        if (sessionId === null) {
          sessionId = newSessionId();
          setSessionCookie(reply, sessionId, secure);
        }
        return { user, csrf: csrfFor(deps.config.secret, sessionId) };
      },
    );

    app.post(
      '/auth/register',
      {
        config: { access: access.session, idempotency: 'ignore' },
        schema: {
          operationId: 'register',
          tags,
          summary: 'Create an account and sign in',
          body: RegisterInput,
          headers: WriteHeaders,
          response: { 201: UserWithCsrf, ...errors(403, 409) },
        },
      },
      async (request, reply) => {
        const row = await registerUser(deps, request.body);
        const csrf = await rotateSession(request, reply, row.id);
        return reply.code(201).send({ user: presentUser(row), csrf });
      },
    );

    app.post(
      '/auth/login',
      {
        config: { access: access.session, idempotency: 'ignore' },
        schema: {
          operationId: 'login',
          tags,
          summary: 'Sign in with email and password',
          body: LoginInput,
          headers: WriteHeaders,
          response: { 200: UserWithCsrf, ...errors(401, 403, 409) },
        },
      },
      async (request, reply) => {
        const row = await verifyLogin(deps, request.body, request.ip);
        const csrf = await rotateSession(request, reply, row.id);
        return { user: presentUser(row), csrf };
      },
    );

    app.post(
      '/auth/logout',
      {
        config: { access: access.session, idempotency: 'ignore' },
        schema: {
          operationId: 'logout',
          tags,
          summary: 'Sign out; a fresh anonymous session replaces the old one',
          headers: WriteHeaders,
          response: { 200: UserWithCsrf, ...errors(403, 409) },
        },
      },
      async (request, reply) => {
        const csrf = await rotateSession(request, reply, null);
        return { user: null, csrf };
      },
    );

    app.patch(
      '/auth/profile',
      {
        config: { access: access.sessionUser },
        schema: {
          operationId: 'updateProfile',
          tags,
          summary: 'Change name, language or time zone',
          body: ProfileInput,
          headers: WriteHeaders,
          response: { 200: UserOnly, ...errors(401, 403, 409) },
        },
      },
      async (request) => {
        const row = await updateProfile(deps, request.actor!, request.body);
        return { user: presentUser(row) };
      },
    );

    app.post(
      '/auth/password',
      {
        config: { access: access.sessionUser, idempotency: 'ignore' },
        schema: {
          operationId: 'changePassword',
          tags,
          summary: 'Change the password, knowing the current one',
          description:
            'Rotates this browser session and its CSRF value and ends every other browser session of the account; ' +
            'personal tokens, OAuth grants and their MCP sessions stay. A wrong `current_password` is 401 unauthenticated ' +
            'and counts as a failed sign-in (429 rate_limited past the sign-in limits).',
          body: PasswordChangeInput,
          headers: WriteHeaders,
          response: { 200: UserWithCsrf, ...errors(401, 403, 409) },
        },
      },
      async (request, reply) => {
        const row = await changePassword(deps, request.actor!, request.body, request.ip);
        const csrf = await rotateSession(request, reply, row.id);
        return { user: presentUser(row), csrf };
      },
    );

    app.post(
      '/auth/email',
      {
        config: { access: access.sessionUser, idempotency: 'ignore' },
        schema: {
          operationId: 'changeEmail',
          tags,
          summary: 'Change the email, knowing the password',
          description:
            'The new address is unverified (`email_verified: false`) until the link mailed to it is opened ' +
            '(as POST /auth/verify/request would mail it; counted in its hourly allowance). The same email again changes nothing. ' +
            '409 conflict when another account uses the email; a wrong password is 401 unauthenticated and counts as a failed sign-in.',
          body: EmailChangeInput,
          headers: WriteHeaders,
          response: { 200: UserOnly, ...errors(401, 403, 409) },
        },
      },
      async (request) => {
        const row = await changeEmail(
          deps,
          request.actor!,
          request.body,
          request.ip,
          warnWith(request.log, 'verification mail failed'),
        );
        return { user: presentUser(row) };
      },
    );

    app.delete(
      '/auth/account',
      {
        config: { access: access.sessionUser, idempotency: 'ignore' },
        schema: {
          operationId: 'deleteAccount',
          tags,
          summary: 'Delete the account and everything it owns, knowing the password',
          description:
            "Removes the account's trees with everything in them (attachments' content included), its personal tokens, OAuth grants, " +
            'MCP sessions, browser sessions and memberships. On trees of others its comments and messages stay with `author_id` null ' +
            'and its assignments go; members of its trees lose them at once. Answers with a fresh anonymous session. ' +
            '409 conflict while billing is configured and a paid subscription is live (cancel it in the portal first); ' +
            'a wrong password is 401 unauthenticated and counts as a failed sign-in.',
          body: AccountDeleteInput,
          headers: WriteHeaders,
          response: { 200: UserWithCsrf, ...errors(401, 403, 409) },
        },
      },
      async (request, reply) => {
        await deleteAccount(deps, request.actor!, request.body.password, request.ip);
        const csrf = await rotateSession(request, reply, null);
        return { user: null, csrf };
      },
    );

    app.post(
      '/auth/reset/request',
      {
        config: { access: access.session, idempotency: 'ignore' },
        schema: {
          operationId: 'requestPasswordReset',
          tags,
          summary: 'Ask for a password reset',
          description:
            'Always 202, whether or not the account exists. `delivery` is `not_configured` while no mail transport is configured.',
          body: ResetRequestInput,
          headers: WriteHeaders,
          response: { 202: ResetRequestAnswer, ...errors(403, 409) },
        },
      },
      async (request, reply) => {
        return reply
          .code(202)
          .send(await requestPasswordReset(deps, request.body.email, warnWith(request.log, 'reset mail failed')));
      },
    );

    app.post(
      '/auth/reset/complete',
      {
        config: { access: access.session, idempotency: 'ignore' },
        schema: {
          operationId: 'completePasswordReset',
          tags,
          summary: 'Set a new password with a mailed reset token',
          description:
            'Single use, within an hour of the request. Ends every personal token, MCP session and browser session of the account, then signs this browser in with a new session and CSRF value.',
          body: ResetCompleteInput,
          headers: WriteHeaders,
          response: { 200: UserWithCsrf, ...errors(403, 409) },
        },
      },
      async (request, reply) => {
        const row = await completePasswordReset(deps, request.body.token, request.body.password);
        const csrf = await rotateSession(request, reply, row.id);
        return { user: presentUser(row), csrf };
      },
    );

    app.post(
      '/auth/verify/request',
      {
        config: { access: access.sessionUser, idempotency: 'ignore' },
        schema: {
          operationId: 'requestEmailVerification',
          tags,
          summary: "Mail a link that verifies the signed-in account's email",
          description:
            'The link (`/verify?token=…`) works once, within a day, for this account. `delivery` is `not_configured` while no mail transport is configured ' +
            '(the operator can run `tasktree user verify`). 409 conflict when the email is verified already; 429 rate_limited past 5 mails an hour.',
          headers: WriteHeaders,
          response: { 202: MailAnswer, ...errors(401, 403, 409) },
        },
      },
      async (request, reply) => {
        return reply
          .code(202)
          .send(
            await requestEmailVerification(deps, request.actor!, warnWith(request.log, 'verification mail failed')),
          );
      },
    );

    app.post(
      '/auth/verify/complete',
      {
        config: { access: access.sessionUser, idempotency: 'ignore' },
        schema: {
          operationId: 'completeEmailVerification',
          tags,
          summary: "Verify the signed-in account's email with a mailed token",
          description:
            'Single use, within a day of the request, by the account it was mailed to; anything else is 400 validation_failed. ' +
            'Invitations sent to the email reach the account from then on.',
          body: VerifyCompleteInput,
          headers: WriteHeaders,
          response: { 200: UserOnly, ...errors(401, 403, 409) },
        },
      },
      async (request) => ({
        user: presentUser(await completeEmailVerification(deps, request.actor!, request.body.token)),
      }),
    );
  };
