/**
 * Fixtures shared by the offline and install benchmarks: a production build in a folder of its
 * own, the real server on it as a child process, and a member with a gallery of photos.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { build } from 'vite';
import { ROOT, type RunningServer, startServer as startBenchServer } from './common.ts';
import { signupBenchMember } from './gallery-fixtures.ts';

export { chromiumLaunchOptions } from '../e2e/chromium.ts';
export const SESSION_COOKIE = 'orbit_session';

/** A production build of the app into a new temporary folder; answers the folder. */
export async function buildInto(prefix: string): Promise<string> {
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  await build({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  return outDir;
}

/** `BENCH_STATIC_DIR` when given (an existing build), else a fresh build of its own. */
export async function appBuild(prefix: string): Promise<{ dir: string; remove: () => void }> {
  const given = process.env.BENCH_STATIC_DIR;
  if (given) return { dir: path.resolve(given), remove: () => {} };
  const dir = await buildInto(prefix);
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The real server (`server/src/main.ts`) on a free port with fresh SQLite data, serving
 * `appBuild(prefix)`; `stop` stops it and removes the build when it made one.
 */
export async function serveAppBuild(
  prefix: string,
): Promise<RunningServer & { staticDir: string }> {
  const app = await appBuild(prefix);
  const server = await startBenchServer({
    env: { STATIC_DIR: app.dir },
    dataPrefix: 'orbit-bench-pwa-',
  });
  return {
    ...server,
    staticDir: app.dir,
    stop: async () => {
      await server.stop();
      app.remove();
    },
  };
}

/** A camera-like 1600 x 1200 JPEG: a coloured gradient under soft noise. */
async function photo(index: number): Promise<Buffer> {
  const width = 1600;
  const height = 1200;
  const noise = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: (index * 47) % 256, g: (index * 91) % 256, b: (index * 13 + 80) % 256 },
      noise: { type: 'gaussian', mean: 110, sigma: 40 },
    },
  })
    .blur(2)
    .raw()
    .toBuffer();
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export interface SeededMember {
  username: string;
  token: string;
  userId: string;
}

/** Signs a member up and uploads `photos` pictures through the real gallery endpoint. */
export async function seedMember(
  origin: string,
  username: string,
  photos: number,
): Promise<SeededMember> {
  const member = await signupBenchMember(origin, username);
  for (let index = 0; index < photos; index++) {
    const form = new FormData();
    form.append(
      'image',
      new Blob([new Uint8Array(await photo(index))], { type: 'image/jpeg' }),
      `photo-${index + 1}.jpg`,
    );
    const response = await fetch(`${origin}/api/gallery`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${member.token}` },
      body: form,
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  }
  return { username, ...member };
}

/** The session cookie a browser holds after this member logs in, for `addCookies`. */
export function sessionCookie(origin: string, member: SeededMember) {
  return {
    name: SESSION_COOKIE,
    value: member.token,
    url: origin,
    httpOnly: true,
    sameSite: 'Lax' as const,
  };
}
