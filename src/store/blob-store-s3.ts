import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.js';
import {
  BlobMissing,
  BlobStoreUnavailable,
  byteMeter,
  type BlobListing,
  type BlobStore,
  type ByteRange,
  type StoredBlob,
} from '../domain/files/blob-store.js';

/**
 * Parts of a multipart upload: S3's smallest (5 MiB), two in flight. The SDK holds the parts in
 * flight in memory, so one upload costs about 10 MiB however large the file, and a file below
 * one part goes up in a single PutObject.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/** An S3 error that means "no such object" rather than "the store failed". */
function isMissing(err: unknown): boolean {
  return (
    err instanceof S3ServiceException &&
    (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404)
  );
}

/** Whatever else went wrong (refused connection, timeout, 5xx, denied access) is the store being unavailable. */
function unavailable(err: unknown): BlobStoreUnavailable {
  const reason = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return new BlobStoreUnavailable(`The blob store failed (${reason})`, { cause: err });
}

/**
 * Attachment content in an S3-compatible bucket, one object per attachment at
 * `<prefix>/<owner>/<attachment id>`. Content is still served by the service (the security
 * headers of CONTRACT §7 stay ours), streamed from S3 with S3's own Range.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  readonly description: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.prefix = config.prefix === '' ? '' : `${config.prefix}/`;
    this.description = `s3://${config.bucket}/${config.prefix}${config.endpoint !== null ? ` at ${config.endpoint}` : ` in ${config.region}`}`;
    this.client = new S3Client({
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      ...(config.endpoint !== null ? { endpoint: config.endpoint } : {}),
      ...(config.credentials !== null ? { credentials: config.credentials } : {}),
      // The SDK's default CRC checksums turn a streamed body into aws-chunked trailers that many
      // S3-compatible stores refuse; our own sha256 already checks what is stored.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Without these a store that stops answering would hold an upload (and its temp file) forever.
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 60_000 },
    });
  }

  private objectKey(key: string): string {
    return this.prefix + key;
  }

  async put(key: string, body: Readable): Promise<StoredBlob> {
    const meter = byteMeter();
    const through = new PassThrough();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.objectKey(key), Body: through },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      // A failed multipart upload is aborted, so no invisible parts are left to bill for.
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(body, meter.stream, through), upload.done()]);
    } catch (err) {
      body.destroy();
      through.destroy();
      await upload.abort().catch(() => {});
      throw unavailable(err);
    }
    return meter.result();
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.objectKey(key),
          ...(range !== undefined ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new BlobMissing(key);
      throw unavailable(err);
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isMissing(err)) return null;
      throw unavailable(err);
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
    } catch (err) {
      if (!isMissing(err)) throw unavailable(err);
    }
  }

  /** The objects under the prefix, a page of up to 1,000 keys per request. */
  async *list(): AsyncIterable<BlobListing[]> {
    let token: string | undefined;
    do {
      let page;
      try {
        page = await this.client.send(
          new ListObjectsV2Command({ Bucket: this.bucket, Prefix: this.prefix, ContinuationToken: token }),
        );
      } catch (err) {
        throw unavailable(err);
      }
      const items = (page.Contents ?? [])
        .filter((item) => item.Key !== undefined)
        .map((item) => ({
          key: item.Key!.slice(this.prefix.length),
          modifiedMs: item.LastModified?.getTime() ?? Date.now(),
        }));
      if (items.length > 0) yield items;
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
