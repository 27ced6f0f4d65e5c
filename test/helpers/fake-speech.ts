import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { startTestApp, type DatabaseKind } from './app.js';

export type Behaviour = 'ok' | 'fail-500' | 'refuse-400' | 'slow';

export interface ReceivedCall {
  authorization: string | undefined;
  model: string | null;
  filename: string | null;
  bytes: Buffer;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * An OpenAI-compatible speech provider on loopback: `POST /v1/audio/transcriptions` with a
 * multipart `file` and `model`, answering `{text}`. Each call takes the next scripted behaviour
 * (the last one repeats), so a test can script 500-then-success, a 400 or a slow answer.
 */
export async function startFakeSpeech(script: Behaviour[] = ['ok']) {
  const calls: ReceivedCall[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/v1/audio/transcriptions') {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'no such route' } }));
      return;
    }
    // A client that gives up (a timeout, a stopping worker) cuts the upload short.
    const raw = await bodyOf(request).catch(() => null);
    if (raw === null) return;
    const form = await new Request('http://fake/', {
      method: 'POST',
      headers: { 'content-type': request.headers['content-type'] ?? '' },
      body: raw,
    }).formData();
    const file = form.get('file');
    calls.push({
      authorization: request.headers.authorization,
      model: form.get('model') as string | null,
      filename: file instanceof File ? file.name : null,
      bytes: file instanceof Blob ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0),
    });
    const behaviour = script[Math.min(calls.length - 1, script.length - 1)];
    if (behaviour === 'slow') return; // never answers; the client's timeout must fire
    if (behaviour === 'fail-500') {
      response
        .writeHead(500, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'upstream overloaded' } }));
      return;
    }
    if (behaviour === 'refuse-400') {
      response
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'Invalid file format. Supported formats: mp3, wav' } }));
      return;
    }
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ text: `heard ${calls.at(-1)!.bytes.length} bytes` }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}/v1`,
    calls,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A test app whose speech provider is a fake one that always answers; `stop` ends both. */
export async function startTestAppWithSpeech(kind: DatabaseKind) {
  const provider = await startFakeSpeech(['ok']);
  const t = await startTestApp(kind, { SPEECH_API_URL: provider.url });
  return {
    ...t,
    async stop() {
      await t.stop();
      await provider.close();
    },
  };
}
