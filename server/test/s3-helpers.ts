/**
 * A local S3-compatible server (s3rver) in this process, on a free port with a temporary
 * directory, and what the app needs to use one of its buckets.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import type { S3Config } from '../src/config.ts';
import { S3Store } from '../src/media/s3.ts';

/** s3rver checks signatures against these. */
const KEY = 'S3RVER';

// The SDK warns once per process that its 2027 releases need Node 22; the tests run on 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export interface LocalS3 {
  endpoint: string;
  port: number;
  /** A new, empty bucket whose name starts with `prefix`. */
  createBucket(prefix?: string): Promise<string>;
  /** The settings that put the app's pictures into `bucket`. */
  env(bucket: string): Record<string, string>;
  settings(bucket: string): S3Config;
  /** A store on `bucket`, listing `listPageSize` keys a page (small ones exercise paging). */
  store(bucket: string, options?: { listPageSize?: number }): S3Store;
  /** Stops the server, keeping its directory so `restart` finds the same objects. */
  stop(): Promise<void>;
  restart(): Promise<void>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

export async function startS3rver(): Promise<LocalS3> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-s3rver-'));
  const start = (port: number) =>
    new S3rver({ address: '127.0.0.1', port, silent: true, directory });
  let server = start(0);
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const settings = (bucket: string): S3Config => ({
    bucket,
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY, secretAccessKey: KEY },
    forcePathStyle: true,
  });
  let running = true;
  return {
    endpoint,
    port,
    async createBucket(prefix = 'orbit') {
      const bucket = `${prefix}-${randomBytes(4).toString('hex')}`;
      const client = new S3Client({
        endpoint,
        region: 'us-east-1',
        forcePathStyle: true,
        credentials: { accessKeyId: KEY, secretAccessKey: KEY },
      });
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } finally {
        client.destroy();
      }
      return bucket;
    },
    env: (bucket) => ({
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: KEY,
      S3_SECRET_ACCESS_KEY: KEY,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    settings,
    store: (bucket, options = {}) => new S3Store(settings(bucket), options),
    async stop() {
      if (!running) return;
      running = false;
      await server.close();
    },
    async restart() {
      if (running) return;
      server = start(port);
      await server.run();
      running = true;
    },
    async close() {
      if (running) await server.close();
      running = false;
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}
