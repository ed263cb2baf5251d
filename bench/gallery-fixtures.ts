/** Fixtures shared by the gallery benchmarks: a 12 MP photo-like JPEG, an app in-process, a member. */
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

export { BENCH_PASSWORD, signupBenchMember } from './common.ts';
