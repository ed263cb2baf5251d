/** Fixtures shared by the gallery benchmarks: a 12 MP photo-like JPEG, an app in-process, a member. */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';

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

/** The real app on a fresh SQLite data directory, listening on a free port. */
export async function startBenchApp(name: string): Promise<BenchApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `orbit-bench-${name}-`));
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-build'),
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT: '1000000',
      UPLOADS_AT_ONCE: '1000',
      UPLOADS_PER_HOUR: '1000000',
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (!address || typeof address === 'string')
    throw new Error('the app is not listening on a port');
  return {
    app,
    base: `http://127.0.0.1:${address.port}`,
    dataDir,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
    for (let i = 0; i < rows.length; i += 1_000)
      await trx
        .insertInto('gallery_images')
        .values(rows.slice(i, i + 1_000))
        .execute();
    for (let i = 0; i < reactions.length; i += 1_000)
      await trx
        .insertInto('image_reactions')
        .values(reactions.slice(i, i + 1_000))
        .execute();
  });
  return { rows, reactions };
}

export { BENCH_PASSWORD, signupBenchMember } from './common.ts';
