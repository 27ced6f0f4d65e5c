import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { RouteAccess } from './access.js';
import { errors } from './schemas/common.js';
import { finishDocument, MARK_CHANGE, MARK_COUNTED, MARK_RECORD_ETAG, MARK_REPLAYABLE } from './openapi-document.js';

export const API_VERSION = '0.8.3';

type Security = Record<string, string[]>[];

/**
 * The security a route's access declaration implies, so the document cannot drift from the
 * pipeline. Personal-token scopes are said in the description (OpenAPI lists scopes only for
 * OAuth schemes); the OAuth scheme lists them.
 */
function securityOf(access: RouteAccess | undefined): Security {
  switch (access?.who) {
    case undefined:
      return [];
    case 'anyone':
      return [{}, { bearerToken: [] }, { oauth: [] }, { sessionCookie: [] }];
    case 'session':
    case 'session-user':
      return [{ sessionCookie: [] }];
    case 'user':
      return [{ bearerToken: [] }, { oauth: [...access.scopes] }, { sessionCookie: [] }];
    case 'token':
      return [{ bearerToken: [] }, { oauth: [] }];
  }
}

/** Who may call, in words, for the operation's description. */
function accessSentence(access: RouteAccess | undefined): string | null {
  switch (access?.who) {
    case undefined:
      return 'Needs no credentials.';
    case 'anyone':
      return null;
    case 'session':
      return 'Browser session only (the cookie and X-CSRF-Token); a Bearer token gets 403 session_required.';
    case 'session-user':
      return 'A signed-in browser session only; a Bearer token gets 403 session_required.';
    case 'token':
      return 'A Bearer token only.';
    case 'user': {
      const scopes = `Bearer token scope${access.scopes.length > 1 ? 's' : ''} ${access.scopes.join(' + ')}, or a signed-in browser session.`;
      return access.write ? `${scopes} A token also needs a paid plan (403 plan_read_only on Seed).` : scopes;
    }
  }
}

const notModified = { type: 'null', description: 'Not modified: If-None-Match matched the current ETag; no body' };

const tags = [
  { name: 'Account', description: 'Registration, sign-in, the browser session and its CSRF value, password reset' },
  { name: 'Personal tokens', description: 'Bearer tokens for agents and scripts, managed from a browser session' },
  {
    name: 'OAuth connections',
    description: 'Apps connected through OAuth 2.1 (one per consent), managed from a browser session',
  },
  { name: 'Trees', description: 'Trees, their snapshot and their full export' },
  { name: 'Projects', description: 'Projects: nested branches of a tree' },
  { name: 'Tasks', description: 'Tasks: the leaves, with lists, filters and literal search' },
  { name: 'Attachments', description: 'Files on tasks; photo metadata is removed before storing' },
  { name: 'Speech', description: 'Transcription of audio into speech jobs, when a provider is configured' },
  { name: 'Sharing', description: 'Members of a tree and invitations (the owner on Grove)' },
  { name: 'Teamwork', description: 'Assignees, comments, tree messages, history and CSV import on a tree' },
  {
    name: 'Changes',
    description:
      'Undo: every write is a change (Change-Id, history change_id); revert one, or a credential’s changes in a tree',
  },
  {
    name: 'Billing',
    description: "Plans bought in the browser (test mode), changed only by the provider's verified webhook",
  },
  { name: 'Agent call journal', description: 'Metadata of the calls made with personal tokens' },
  { name: 'Service', description: 'Liveness and readiness, outside /api/v1' },
];

/**
 * What the document adds to a route's own schema: its security, 304 on JSON reads (an ETag
 * revalidation), 415 on writes (JSON is the only body type besides uploads), and markers for
 * the headers the pipeline sets, which `finishDocument` turns into response headers.
 */
function documentRoute(
  schema: Record<string, unknown>,
  method: string,
  url: string,
  config: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (schema.hide === true) return schema;
  if (typeof schema.operationId !== 'string') throw new Error(`OpenAPI: the route ${url} has no operationId`);
  const access = config?.access as RouteAccess | undefined;
  const response = { ...(schema.response as Record<string, TSchema> | undefined) };
  const binary = (response[200] as { content?: unknown } | undefined)?.content !== undefined;
  if (access !== undefined && method === 'GET' && !binary) response[304] = notModified as unknown as TSchema;
  if (access !== undefined && method !== 'GET') Object.assign(response, errors(415));
  const counted = access !== undefined && config?.rateLimit !== false;
  const replayable = counted && method !== 'GET' && (config?.idempotency ?? 'allow') === 'allow';
  const description = [schema.description, accessSentence(access)]
    .filter((part) => typeof part === 'string' && part !== '')
    .join(' ');
  const documented: Record<string, unknown> = {
    ...schema,
    description,
    response,
    security: securityOf(access),
    [MARK_COUNTED]: counted,
    [MARK_REPLAYABLE]: replayable,
    [MARK_RECORD_ETAG]: config?.recordETag === true,
    // Data writes of a signed-in user append history, and answer its change (CONTRACT §16.3).
    [MARK_CHANGE]: access?.who === 'user' && access.write && method !== 'GET',
  };
  if (config?.documentedBody !== undefined) documented.body = config.documentedBody;
  return documented;
}

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.1',
      info: {
        title: 'Task Tree API',
        version: API_VERSION,
        description:
          'A tenant-isolated task service for people and their AI agents. Every failure under /api/v1 answers the Error body. ' +
          'Browser writes need the session cookie plus X-CSRF-Token (from GET /api/v1/auth/me). ' +
          'No string anywhere in a request may hold the NUL character (U+0000), and no integer may pass 2147483647.',
        // The project's licence (LICENSE); OpenAPI 3.1 names it by its SPDX identifier.
        license: { name: 'AGPL-3.0-or-later', identifier: 'AGPL-3.0-or-later' },
      },
      servers: [{ url: publicUrl }],
      tags,
      components: {
        securitySchemes: {
          bearerToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'Personal token (ttp_…), scopes read, write, attachments',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'tt_session',
            description: 'Browser session; writes also need the X-CSRF-Token header',
          },
          oauth: {
            type: 'oauth2',
            description:
              'OAuth 2.1 for public clients (PKCE S256, RFC 8707 resource required: a token works only at the resource it was issued for). ' +
              'Discovery: /.well-known/oauth-authorization-server and /.well-known/oauth-protected-resource/api/v1; registration: /oauth/register.',
            flows: {
              authorizationCode: {
                authorizationUrl: `${publicUrl}/oauth/authorize`,
                tokenUrl: `${publicUrl}/oauth/token`,
                refreshUrl: `${publicUrl}/oauth/token`,
                scopes: {
                  read: 'Read trees, projects, tasks, notes, search and export',
                  write: 'Create, update and delete (paid plans)',
                  attachments: 'Attachment content, on top of read',
                },
              },
            },
          },
        },
      },
    },
    // Schemas with an $id become components under that name (Task, Tree, Error, ...), not def-N.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
    transform({ schema, url, route }) {
      const method = String(Array.isArray(route.method) ? route.method[0] : route.method);
      return {
        schema: documentRoute(
          schema as Record<string, unknown>,
          method,
          url,
          route.config as Record<string, unknown> | undefined,
        ),
        url,
      } as never;
    },
    transformObject: (document) =>
      ('openapiObject' in document
        ? finishDocument(document.openapiObject as Record<string, never>)
        : document.swaggerObject) as never,
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: true });
}
