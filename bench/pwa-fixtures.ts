/**
 * Fixtures shared by the offline and install benchmarks: a production build in a folder of its
 * own, the real server on it as a child process, and a member with a gallery of photos.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { build } from 'vite';
import { ROOT, freePort } from './common.ts';
import { signupBenchMember } from './gallery-fixtures.ts';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
/** The flags the browser tests use (playwright.config.ts). */
export const CHROME_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
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

export interface RunningServer {
  origin: string;
  stop: () => Promise<void>;
}

/** The real server (`server/src/main.ts`) on a free port, fresh SQLite data, serving `staticDir`. */
export async function startServer(staticDir: string): Promise<RunningServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-pwa-'));
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        STATIC_DIR: staticDir,
        DATA_DIR: dataDir,
        APP_ORIGIN: origin,
        AUTH_RATE_LIMIT: '1000000',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`no answer on ${origin}/healthz`);
    }
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { origin, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
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
