import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenApiValidator } from './openapi-validator.js';

function bodyOf(message: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    message.on('data', (chunk: Buffer) => chunks.push(chunk));
    message.on('end', () => resolve(Buffer.concat(chunks)));
    message.on('error', reject);
  });
}

/**
 * A loopback HTTP proxy in front of the real app: every answer passes unchanged to the client
 * and through an OpenApiValidator of the document the app serves. Point any client or helper
 * at `url` and read `mismatches` afterwards.
 */
export async function startValidatingProxy(target: string) {
  const document: any = await (await fetch(`${target}/api/v1/openapi.json`)).json();
  const validator = new OpenApiValidator(document);
  const mismatches: string[] = [];
  const upstream = new URL(target);
  const server: Server = createServer(async (incoming, outgoing) => {
    try {
      const payload = await bodyOf(incoming);
      const answer = await new Promise<IncomingMessage>((resolve, reject) => {
        const forwarded = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            method: incoming.method,
            path: incoming.url,
            headers: incoming.headers,
          },
          resolve,
        );
        forwarded.on('error', reject);
        forwarded.end(payload);
      });
      const body = await bodyOf(answer);
      const path = (incoming.url ?? '/').split('?')[0]!;
      mismatches.push(
        ...validator.check({
          method: incoming.method ?? 'GET',
          path,
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body,
        }),
      );
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      outgoing.end(body);
    } catch (error) {
      mismatches.push(`proxy failed on ${incoming.method} ${incoming.url}: ${String(error)}`);
      outgoing.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    document,
    validator,
    mismatches,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
