import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import S3rver from 's3rver';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

/** s3rver checks request signatures against this fixed key pair. */
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

export interface S3Server {
  /** The endpoint, http://127.0.0.1:<random port>. */
  url: string;
  bucket: string;
  prefix: string;
  /** The settings that point the app at this bucket (for makeTestEnv, startTestApp or a child process). */
  env: Record<string, string>;
  /** A client of our own, to look at the bucket around the app. */
  client: S3Client;
  /** Every request the server received, as `METHOD /path?query` and its Range if any (to see multipart uploads and ranged reads happen). */
  requests: string[];
  /** Every key under the prefix, without it: what the app has stored. */
  keys(): Promise<string[]>;
  /** Writes an object under the prefix, as a crashed upload would leave it. */
  write(key: string, body: string | Buffer): Promise<void>;
  /** Stops answering (connections refused) but keeps the stored objects, as a store that is down. */
  down(): Promise<void>;
  /** Answers again on the same port with the same objects. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (s3rver, in this process) on a random loopback port with one
 * fresh bucket, for tests of the S3 blob store. Each call starts its own server and directory.
 */
export async function startS3Server(options: { prefix?: string } = {}): Promise<S3Server> {
  const directory = mkdtempSync(join(tmpdir(), 'tasktree-s3-'));
  const requests: string[] = [];
  const listen = async (port: number) => {
    const started = new S3rver({ address: '127.0.0.1', port, silent: true, directory });
    const address = await started.run();
    started.httpServer.on('request', (request: IncomingMessage) =>
      requests.push(
        `${request.method} ${request.url}${request.headers.range !== undefined ? ` ${request.headers.range}` : ''}`,
      ),
    );
    return { started, port: address.port };
  };
  let { started: server, port } = await listen(0);
  let running = true;
  const halt = async () => {
    if (!running) return;
    running = false;
    // Keep-alive sockets of the app's client would hold close() open.
    server.httpServer.closeAllConnections();
    await server.close();
  };
  const url = `http://127.0.0.1:${port}`;
  const bucket = `tasktree-${randomBytes(4).toString('hex')}`;
  const prefix = options.prefix ?? 'attachments';
  const client = new S3Client({
    endpoint: url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const under = prefix === '' ? '' : `${prefix}/`;
  let stopped = false;
  return {
    url,
    bucket,
    prefix,
    env: {
      BLOB_STORE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: url,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: ACCESS_KEY,
      AWS_SECRET_ACCESS_KEY: SECRET_KEY,
    },
    client,
    requests,
    async keys() {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: under, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) keys.push(item.Key!.slice(under.length));
        token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
      } while (token !== undefined);
      return keys.sort();
    },
    async write(key, body) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: under + key, Body: body }));
    },
    down: halt,
    async up() {
      if (running) return;
      ({ started: server, port } = await listen(port));
      running = true;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      client.destroy();
      await halt();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
