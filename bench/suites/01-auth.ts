import { alternate, load, printHeader, report, startBaseline, startServer, makeAgent } from '../lib.js';

/** The pipeline's cost: bare Fastify vs GET /auth/me with a Bearer token, and the 304 path. */
export async function run(): Promise<void> {
  printHeader('Request pipeline (SQLite)');
  const baseline = await startBaseline();
  const server = await startServer('sqlite');
  try {
    const { token } = await makeAgent(server);
    const headers = { authorization: `Bearer ${token}` };
    const [bare, me] = await alternate(
      ['bare Fastify, small JSON', { url: `${baseline.url}/` }],
      ['GET /api/v1/auth/me, Bearer', { url: `${server.url}/api/v1/auth/me`, headers }],
    );
    report(bare);
    report(me, bare, 'target ≥ 0.5×');
    const etag = (await fetch(`${server.url}/api/v1/auth/me`, { headers })).headers.get('etag')!;
    report(await load('GET /api/v1/auth/me, Bearer, If-None-Match → 304', { url: `${server.url}/api/v1/auth/me`, headers: { ...headers, 'if-none-match': etag }, expectStatus: 304 }), bare);
  } finally {
    await server.close();
    await baseline.close();
  }
}
