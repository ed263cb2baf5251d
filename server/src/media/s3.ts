import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../config.ts';
import {
  MEDIA_CACHE_CONTROL,
  type MediaInfo,
  type MediaListing,
  type MediaRead,
  type MediaStore,
  contentTypeOf,
  unlessMissing,
} from './store.ts';

/** One DeleteObjects call takes at most this many keys. */
const DELETE_BATCH = 1000;

interface ServiceError {
  name?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

const statusOf = (error: unknown) => (error as ServiceError).$metadata?.httpStatusCode;
const isNotFound = (error: unknown) =>
  statusOf(error) === 404 ||
  (error as ServiceError).name === 'NoSuchKey' ||
  (error as ServiceError).name === 'NotFound';

const quoted = (etag: string) => (/^(W\/)?"/.test(etag) ? etag : `"${etag}"`);

/** A lone entity tag the client sent, which is then the one that matched. */
function singleTag(ifNoneMatch: string | undefined): string | undefined {
  const value = ifNoneMatch?.trim();
  return value && value !== '*' && !value.includes(',') ? value : undefined;
}

/** Objects in one bucket of S3 or a service that speaks its API. */
export class S3Store implements MediaStore {
  readonly kind = 's3';
  readonly bucket: string;
  private readonly client: S3Client;
  private readonly endpoint: string;
  private readonly pageSize: number;

  constructor(settings: S3Config, options: { listPageSize?: number } = {}) {
    this.bucket = settings.bucket;
    this.endpoint = settings.endpoint ?? `AWS ${settings.region}`;
    this.pageSize = options.listPageSize ?? 1000;
    this.client = new S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      ...(settings.credentials ? { credentials: settings.credentials } : {}),
      forcePathStyle: settings.forcePathStyle,
      // Checksums only where an operation demands them: MinIO, R2 and s3rver refuse or ignore
      // the newer default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      // Without timeouts a bucket that stops answering would hold requests open for good.
      requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
    });
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    const params = {
      Bucket: this.bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      CacheControl: MEDIA_CACHE_CONTROL,
    };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand(params));
      return;
    }
    // A stream of unknown length goes up in parts; an interrupted upload is aborted, not kept.
    await new Upload({
      client: this.client,
      params,
      queueSize: 4,
      leavePartsOnError: false,
    }).done();
  }

  private infoOf(
    key: string,
    output: {
      ContentLength?: number | undefined;
      ETag?: string | undefined;
      ContentType?: string | undefined;
      LastModified?: Date | undefined;
    },
  ): MediaInfo {
    return {
      size: output.ContentLength ?? 0,
      etag: quoted(output.ETag ?? '""'),
      contentType: output.ContentType ?? contentTypeOf(key),
      lastModified: output.LastModified ?? new Date(0),
    };
  }

  async stat(key: string): Promise<MediaInfo | undefined> {
    const output = await unlessMissing(
      () => this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })),
      isNotFound,
    );
    return output && this.infoOf(key, output);
  }

  async get(
    key: string,
    conditions: { ifNoneMatch?: string | undefined } = {},
  ): Promise<MediaRead> {
    try {
      const output = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(conditions.ifNoneMatch ? { IfNoneMatch: conditions.ifNoneMatch } : {}),
        }),
      );
      if (!(output.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
      return { status: 'found', info: this.infoOf(key, output), body: output.Body };
    } catch (error) {
      if (statusOf(error) === 304) {
        const etag = (error as ServiceError).$response?.headers?.etag;
        return {
          status: 'not-modified',
          etag: etag ? quoted(etag) : singleTag(conditions.ifNoneMatch),
        };
      }
      if (isNotFound(error)) return { status: 'missing' };
      throw error;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      const output = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: batch.map((key) => ({ Key: key })), Quiet: true },
        }),
      );
      const failed = (output.Errors ?? []).filter((error) => error.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new Error(
          `S3 did not remove ${failed.length} object(s), first ${first?.Key}: ${first?.Code} ${first?.Message}`,
        );
      }
    }
  }

  /**
   * ListObjects (version 1) with the last key as the marker: every S3-compatible service has it,
   * and s3rver's version 2 page tokens need a cipher that OpenSSL 3 no longer ships.
   */
  async *list(prefix: string): AsyncIterable<MediaListing> {
    let marker: string | undefined;
    for (;;) {
      const page = await this.client.send(
        new ListObjectsCommand({
          Bucket: this.bucket,
          Prefix: prefix,
          MaxKeys: this.pageSize,
          ...(marker ? { Marker: marker } : {}),
        }),
      );
      const contents = page.Contents ?? [];
      for (const item of contents) {
        if (!item.Key) continue;
        yield {
          key: item.Key,
          size: item.Size ?? 0,
          lastModified: item.LastModified ?? new Date(0),
        };
      }
      marker = page.NextMarker ?? contents.at(-1)?.Key;
      if (!page.IsTruncated || !marker) return;
    }
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 404)
        throw new Error(`The bucket "${this.bucket}" does not exist at ${this.endpoint}.`);
      if (status === 403 || status === 401)
        throw new Error(
          `Access to the bucket "${this.bucket}" at ${this.endpoint} is denied: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY.`,
        );
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(
        `The bucket "${this.bucket}" at ${this.endpoint} cannot be reached: ${reason || (error as ServiceError).name || 'no answer'}.`,
      );
    }
  }

  close(): void {
    this.client.destroy();
  }
}
