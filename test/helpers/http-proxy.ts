import { Agent, createServer, request as forward, type IncomingHttpHeaders } from 'node:http';
import { Client } from './client.js';

/** The header a test sends to the proxy to say which client machine it stands for. */
export const CLIENT_HEADER = 'x-test-client';

export interface HttpProxy {
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy on loopback in front of the real app, doing what Caddy does for compose.yaml:
 * whatever X-Forwarded-For a client sent is replaced by the client's address, and
 * X-Forwarded-Proto says how the client connected. Every test client comes from 127.0.0.1, so
 * the address it stands for is taken from its `x-test-client` header (a real proxy sees it on
 * the socket). Without that header the proxy forwards the client's own X-Forwarded-For, as a
 * proxy that trusts the one before it would.
 */
export async function startHttpProxy(target: string, options: { proto?: string } = {}): Promise<HttpProxy> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = { ...req.headers };
    const client = headers[CLIENT_HEADER];
    delete headers[CLIENT_HEADER];
    if (typeof client === 'string') headers['x-forwarded-for'] = client;
    headers['x-forwarded-proto'] = options.proto ?? 'http';
    const outgoing = forward(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}

/** A browser on the machine at `address`, reaching the app through the proxy at `proxyUrl`. */
export class ClientAt extends Client {
  constructor(
    proxyUrl: string,
    readonly address: string,
  ) {
    super(proxyUrl);
  }

  override credentialHeaders(method: string): Record<string, string> {
    return { ...super.credentialHeaders(method), [CLIENT_HEADER]: this.address };
  }
}

/** A browser at `address` (a fresh one by default) with a session and its CSRF value, as a sign-in needs. */
export async function browserAt(proxyUrl: string, address = randomClientAddress()): Promise<ClientAt> {
  const browser = new ClientAt(proxyUrl, address);
  await browser.get('/api/v1/auth/me');
  return browser;
}

/** An address in RFC 3849's documentation range 2001:db8::/32 that no other test or run uses (Redis keeps counters between runs). */
export function randomClientAddress(): string {
  const part = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${part()}:${part()}::${part()}`;
}
