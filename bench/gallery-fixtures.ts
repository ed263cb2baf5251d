/** Fixtures shared by the gallery benchmarks: a 12 MP photo-like JPEG, an app in-process, a member. */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Insertable, LogEvent } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '../server/src/app.ts';
import { type Config, loadConfig } from '../server/src/config.ts';
import { type Db, createDatabase } from '../server/src/db/index.ts';
import type { Database } from '../server/src/db/schema.ts';
import { createFreshDatabase } from '../server/test/postgres.ts';
import { BENCH_LIMITS } from './common.ts';

export const PHOTO_WIDTH = 4000;
export const PHOTO_HEIGHT = 3000;

/**
 * A 4000 x 3000 JPEG from gaussian noise over a smooth gradient, blurred a little so it compresses
 * like a photo (a few MB at quality 90) rather than like flat colour or pure noise.
 */
export function twelveMegapixelJpeg(): Promise<Buffer> {
  return photoLikeJpeg({
    width: PHOTO_WIDTH,
    height: PHOTO_HEIGHT,
    sigma: 50,
    blur: 1.2,
    quality: 90,
  });
}

/** Gaussian noise over a flat colour, blurred a little, as a JPEG: compresses like a photo. */
export async function photoLikeJpeg(options: {
  width: number;
  height: number;
  sigma: number;
  blur: number;
  quality: number;
}): Promise<Buffer> {
  const { width, height } = options;
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 90, g: 120, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: options.sigma },
    },
  })
    .blur(options.blur)
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: options.quality })
    .toBuffer();
}

export interface BenchApp {
  app: FastifyInstance;
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

export interface BenchAppOptions {
  /** PostgreSQL instead of SQLite: a fresh database beside the one this URL names, dropped after. */
  postgresUrl?: string | undefined;
  /** LOG_LEVEL, `warn` unless given. */
  logLevel?: string;
  /** Told of every statement the app's database runs (see statementRecorder). */
  onQuery?: (event: LogEvent) => void;
}

/**
 * The app's settings on a fresh data directory (and a fresh PostgreSQL database with
 * `postgresUrl`), in production mode with BENCH_LIMITS; `remove()` deletes both.
 */
export async function freshBenchConfig(
  name: string,
  options: BenchAppOptions = {},
): Promise<{ config: Config; remove: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `orbit-bench-${name}-`));
  const database = options.postgresUrl
    ? await createFreshDatabase(options.postgresUrl, `orbit_bench_${name.replaceAll('-', '_')}`)
    : undefined;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-build'),
    LOG_LEVEL: options.logLevel ?? 'warn',
    ...BENCH_LIMITS,
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  return {
    config,
    remove: async () => {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The real app on fresh storage (see freshBenchConfig), listening on a free port. */
export async function startBenchApp(
  name: string,
  options: BenchAppOptions = {},
): Promise<BenchApp> {
  const { config, remove } = await freshBenchConfig(name, options);
  const given = options.onQuery ? createDatabase({ ...config, log: options.onQuery }) : undefined;
  const app = await buildApp(config, given ? { db: given } : {});
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string')
    throw new Error('the app is not listening on a port');
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    dataDir: config.dataDir,
    async close() {
      await app.close();
      await given?.db.destroy();
      await remove();
    },
  };
}

/** One GET as it went over the wire: the status, the encoding, the bytes and how long it took. */
export function wireGet(
  url: string,
  options: {
    headers: Record<string, string>;
    acceptEncoding?: string | undefined;
    agent?: http.Agent;
  },
) {
  return new Promise<{
    status: number;
    encoding: string;
    contentLength: string;
    wireBytes: number;
    ms: number;
  }>((resolve, reject) => {
    const began = process.hrtime.bigint();
    const { acceptEncoding } = options;
    const request = http.get(
      url,
      {
        ...(options.agent ? { agent: options.agent } : {}),
        headers: {
          ...options.headers,
          ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}),
        },
      },
      (response) => {
        let wireBytes = 0;
        response.on('data', (chunk: Buffer) => (wireBytes += chunk.length));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            encoding: response.headers['content-encoding'] ?? 'identity',
            contentLength: response.headers['content-length'] ?? '(chunked)',
            wireBytes,
            ms: Number(process.hrtime.bigint() - began) / 1e6,
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

/** Inserts rows into `table` 1,000 at a time (under both databases' bound-parameter limits). */
export async function insertInBatches<T extends 'gallery_images' | 'image_reactions'>(
  db: Db,
  table: T,
  rows: readonly Insertable<Database[T]>[],
) {
  for (let i = 0; i < rows.length; i += 1_000)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 1_000))
      .execute();
}

/**
 * Inserts `count` photo rows (fake file names, four folders, newest first) for `owner`, each
 * fifth one reacted to by every reactor (two thirds likes, one third dislikes), in batches of
 * 1,000 in one transaction; answers the rows and the reactions.
 */
export async function insertGallery(
  app: FastifyInstance,
  owner: { userId: string },
  reactors: readonly { userId: string }[],
  count: number,
) {
  const folders = ['All', 'Trips', 'Pets', 'Family'];
  const start = Date.UTC(2025, 0, 1);
  const rows = Array.from({ length: count }, (_, i) => {
    const name = randomBytes(16).toString('hex');
    return {
      id: randomUUID(),
      owner_id: owner.userId,
      display_file: `${name}.webp`,
      thumb_file: `${name}-thumb.webp`,
      width: 1600,
      height: 1200,
      bytes: 350_000,
      folder: folders[i % folders.length] ?? 'All',
      caption: i % 3 === 0 ? `Picture number ${i}` : '',
      position: -(i + 1),
      created_at: new Date(start + i * 60_000).toISOString(),
    };
  });
  const reactions = rows
    .filter((_, i) => i % 5 === 0)
    .flatMap((row, i) =>
      reactors.map((reactor, j) => ({
        image_id: row.id,
        user_id: reactor.userId,
        kind: (i + j) % 3 === 2 ? ('dislike' as const) : ('like' as const),
        created_at: row.created_at,
      })),
    );
  await app.db.transaction().execute(async (trx) => {
    await insertInBatches(trx, 'gallery_images', rows);
    await insertInBatches(trx, 'image_reactions', reactions);
  });
  return { rows, reactions };
}

export { BENCH_PASSWORD, signupBenchMember } from './common.ts';

/**
 * `count` JPEGs of about `targetBytes` each: sharp's gaussian noise barely compresses, so a
 * photo's size is set by its pixel count; the width is tuned once from a first try. `spread`
 * widens each next photo by that many pixels, so no two are the same file.
 */
export async function noisePhotos(
  count: number,
  targetBytes: number,
  spread = 0,
): Promise<Buffer[]> {
  const photo = (index: number, width: number) =>
    sharp({
      create: {
        width,
        height: Math.round((width * 3) / 4),
        channels: 3,
        background: { r: (index * 47) % 256, g: (index * 91) % 256, b: 120 },
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
  const probe = await photo(0, 1000);
  const width = Math.round(1000 * Math.sqrt(targetBytes / probe.byteLength));
  return Promise.all(
    Array.from({ length: count }, (_, index) => photo(index, width + index * spread)),
  );
}
