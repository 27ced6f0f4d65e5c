import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { RouteAccess } from './access.js';

export const API_VERSION = '0.8.3';

type Security = Record<string, string[]>[];

/** The security a route's access declaration implies, so the document cannot drift from the pipeline. */
function securityOf(access: RouteAccess | undefined): Security | undefined {
  if (access === undefined) return undefined;
  const session = [{ sessionCookie: [] as string[] }];
  switch (access.who) {
    case 'anyone':
      return [{}, { bearerToken: [] }, { sessionCookie: [] }, { oauth: [] }];
    case 'session':
    case 'session-user':
      return session;
    case 'user':
      return [{ bearerToken: [...access.scopes] }, { oauth: [...access.scopes] }, { sessionCookie: [] }];
  }
}

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.1',
      info: {
        title: 'Task Tree API',
        version: API_VERSION,
        description:
          'A tenant-isolated task service for people and their AI agents. Errors always use the Error body. ' +
          'Browser writes need the session cookie plus X-CSRF-Token (from GET /auth/me).',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerToken: { type: 'http', scheme: 'bearer', description: 'Personal token (ttp_…), scopes read, write, attachments' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'tt_session', description: 'Browser session; writes also need the X-CSRF-Token header' },
          oauth: {
            type: 'oauth2',
            description: 'OAuth 2.1 public clients with S256 PKCE',
            flows: {
              authorizationCode: {
                authorizationUrl: `${publicUrl}/oauth/authorize`,
                tokenUrl: `${publicUrl}/oauth/token`,
                scopes: { read: 'Read trees, tasks, search, export', write: 'Create, update, delete', attachments: 'Attachment content' },
              },
            },
          },
        },
      },
    },
    transform({ schema, url, route }) {
      const security = securityOf(route.config?.access as RouteAccess | undefined);
      const body = route.config?.documentedBody;
      return { schema: { ...schema, ...(security !== undefined ? { security } : {}), ...(body !== undefined ? { body } : {}) }, url } as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { deepLinking: true }, staticCSP: true });
}
