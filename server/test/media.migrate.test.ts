/**
 * `npm run media:migrate` as a real process (`node --import tsx server/src/media/migrate.ts`):
 * copies a disk store into a bucket on a local s3rver, skips what is already there, resumes
 * after an interruption, and says so in its exit code when it cannot copy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalS3, startS3rver } from './s3-helpers.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

let s3: LocalS3;
const folders: string[] = [];
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3.close();
  await Promise.all(folders.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

interface DiskPictures {
  dataDir: string;
  /** Every picture key with the quoted MD5 of its bytes (what S3 answers as ETag). */
  etags: Map<string, string>;
}

/** A data directory with `gallery` pictures (and their thumbnails) and `avatars`, plus files that are not pictures. */
async function diskPictures(gallery: number, avatars: number, size = 2048): Promise<DiskPictures> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-migrate-'));
  folders.push(dataDir);
  const uploads = path.join(dataDir, 'uploads');
  const etags = new Map<string, string>();
  const write = async (key: string) => {
    const bytes = randomBytes(size);
    await fs.mkdir(path.dirname(path.join(uploads, key)), { recursive: true });
    await fs.writeFile(path.join(uploads, key), bytes);
    etags.set(key, `"${createHash('md5').update(bytes).digest('hex')}"`);
  };
  for (let i = 0; i < gallery; i += 1) {
    const name = randomBytes(16).toString('hex');
    await write(`gallery/${name}.webp`);
    await write(`gallery/${name}-thumb.webp`);
  }
  for (let i = 0; i < avatars; i += 1)
    await write(`avatars/${randomBytes(16).toString('hex')}.webp`);
  await fs.writeFile(path.join(uploads, 'gallery', `${'a'.repeat(32)}.webp.0a1b2c.partial`), 'x');
  await fs.writeFile(path.join(uploads, 'gallery', 'notes.txt'), 'x');
  await fs.mkdir(path.join(uploads, '.incoming'));
  await fs.writeFile(path.join(uploads, '.incoming', 'abc.upload'), 'x');
  return { dataDir, etags };
}

function startMigrate(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'server/src/media/migrate.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

async function finished(child: ChildProcess) {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}

const migrate = (env: Record<string, string>) => finished(startMigrate(env));

/** Every key in the bucket with its ETag. */
async function bucketEtags(bucket: string): Promise<Map<string, string>> {
  const store = s3.store(bucket);
  const found = new Map<string, string>();
  try {
    for await (const item of store.list(''))
      found.set(item.key, (await store.stat(item.key))?.etag ?? '');
  } finally {
    store.close();
  }
  return found;
}

async function bucketSize(bucket: string): Promise<number> {
  const store = s3.store(bucket);
  let count = 0;
  try {
    for await (const _item of store.list('')) count += 1;
  } finally {
    store.close();
  }
  return count;
}

interface Gate {
  /** `S3_ENDPOINT` for the migration: the bucket, through the gate. */
  endpoint: string;
  /** Resolves once `uploads` uploads have gone through; every later request gets no answer. */
  shut: Promise<void>;
  close(): Promise<void>;
}

/**
 * A proxy in front of the local S3 server that passes `uploads` PUTs and then stops answering,
 * holding every further request open (`hang`) or cutting its connection (`drop`): a bucket that
 * goes away at a known point of the copy, however fast the machine.
 */
async function gate(uploads: number, mode: 'hang' | 'drop'): Promise<Gate> {
  let admitted = 0;
  let passed = 0;
  let open!: () => void;
  const shut = new Promise<void>((resolve) => (open = resolve));
  const held = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const upload = request.method === 'PUT';
    if (upload && admitted >= uploads) {
      if (mode === 'drop') request.socket.destroy();
      else held.add(response);
      return;
    }
    if (upload) admitted += 1;
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: s3.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
        answer.once('end', () => {
          if (!upload) return;
          passed += 1;
          if (passed === uploads) open();
        });
      },
    );
    upstream.once('error', () => request.socket.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    shut,
    async close() {
      for (const response of held) response.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const sorted = (map: Map<string, string>) =>
  [...map.entries()].sort(([a], [b]) => a.localeCompare(b));

describe('npm run media:migrate', () => {
  it('copies every picture byte for byte and nothing that is not a picture', async () => {
    const disk = await diskPictures(5, 3);
    const bucket = await s3.createBucket('migrate');

    const run = await migrate({ DATA_DIR: disk.dataDir, ...s3.env(bucket) });

    expect(run.code).toBe(0);
    expect(sorted(await bucketEtags(bucket))).toEqual(sorted(disk.etags));
    expect(run.stdout).toMatch(/13 copied .* 0 already in the bucket, 0 failed, 2 files skipped/);
  });

  it('leaves the bucket as it was when run a second time, copying nothing', async () => {
    const disk = await diskPictures(4, 2);
    const bucket = await s3.createBucket('migrate');
    await migrate({ DATA_DIR: disk.dataDir, ...s3.env(bucket) });
    const first = sorted(await bucketEtags(bucket));

    const again = await migrate({ DATA_DIR: disk.dataDir, ...s3.env(bucket) });

    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/0 copied .* 10 already in the bucket, 0 failed/);
    expect(sorted(await bucketEtags(bucket))).toEqual(first);
  });

  it('copies a picture again whose copy in the bucket has another size', async () => {
    const disk = await diskPictures(1, 1);
    const bucket = await s3.createBucket('migrate');
    const [key] = [...disk.etags.keys()];
    if (!key) throw new Error('no picture');
    const store = s3.store(bucket);
    await store.put(key, Buffer.from('cut short'), 'image/webp');
    store.close();

    const run = await migrate({ DATA_DIR: disk.dataDir, ...s3.env(bucket) });

    expect(run.stdout).toMatch(/3 copied .* 0 already in the bucket/);
    expect(sorted(await bucketEtags(bucket))).toEqual(sorted(disk.etags));
  });

  it('completes the copy on a second run after the first was killed', async () => {
    const disk = await diskPictures(40, 0, 16 * 1024);
    const bucket = await s3.createBucket('migrate');
    const env = { DATA_DIR: disk.dataDir, ...s3.env(bucket) };
    const bucketGate = await gate(20, 'hang');

    const first = startMigrate({ ...env, S3_ENDPOINT: bucketGate.endpoint });
    const ended = finished(first);
    try {
      await bucketGate.shut;
      first.kill('SIGKILL');
      await ended;
    } finally {
      await bucketGate.close();
    }
    expect(await bucketSize(bucket)).toBe(20);

    const second = await migrate(env);

    expect(second.code).toBe(0);
    expect(second.stdout).toContain('60 copied');
    expect(second.stdout).toContain('20 already in the bucket, 0 failed');
    expect(sorted(await bucketEtags(bucket))).toEqual(sorted(disk.etags));
  });

  it('exits with 1 and names the pictures it could not copy when the bucket stops answering', async () => {
    const disk = await diskPictures(20, 0, 16 * 1024);
    const bucket = await s3.createBucket('migrate');
    const bucketGate = await gate(10, 'drop');

    let run: Awaited<ReturnType<typeof finished>>;
    try {
      run = await migrate({
        DATA_DIR: disk.dataDir,
        ...s3.env(bucket),
        S3_ENDPOINT: bucketGate.endpoint,
      });
    } finally {
      await bucketGate.close();
    }

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/failed: gallery\/[0-9a-f]{32}(-thumb)?\.webp/);
    expect(run.stderr).toContain('Run npm run media:migrate again to retry them.');
    expect(run.stdout).toContain('10 copied');
    expect(run.stdout).toContain('30 failed');
    expect(await bucketSize(bucket)).toBe(10);
  });

  it('refuses to run without S3_BUCKET, saying what to set', async () => {
    const disk = await diskPictures(1, 0);

    const run = await migrate({ DATA_DIR: disk.dataDir, S3_BUCKET: '' });

    expect(run.code).toBe(2);
    expect(run.stderr).toContain('S3_BUCKET is not set.');
  });

  it('exits with 1 and says so when the bucket does not exist, copying nothing', async () => {
    const disk = await diskPictures(1, 0);

    const run = await migrate({ DATA_DIR: disk.dataDir, ...s3.env('orbit-nowhere') });

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The bucket "orbit-nowhere" does not exist');
  });

  it('removes nothing from the folder it copies', async () => {
    const disk = await diskPictures(2, 1);
    const bucket = await s3.createBucket('migrate');
    const before = await fs.readdir(path.join(disk.dataDir, 'uploads'), { recursive: true });

    await migrate({ DATA_DIR: disk.dataDir, ...s3.env(bucket) });

    expect(await fs.readdir(path.join(disk.dataDir, 'uploads'), { recursive: true })).toEqual(
      before,
    );
  });
});
