/**
 * Downloading one's data (docs/product.md "Leaving") for a member with 500 photos: the time of
 * `GET /api/auth/export` from the request to its last byte, the archive's size, and the server's
 * resident memory (VmRSS, sampled every 10 ms) before and at its peak, for a client that reads as
 * fast as it can, and for one that reads 2 MB a second and leaves after 10 s. The server runs as operators run it
 * (`npm run serve`: build/server.mjs, compiled first when stale), on SQLite with its pictures on
 * disk, or on PostgreSQL with BENCH_DATABASE_URL=postgres://… (a fresh database, dropped after).
 *
 * The photos are real processed pictures: BENCH_DISTINCT (20) photo-like 2000 × 1500 JPEGs go
 * through `POST /api/gallery`, and their display pictures are stored again through the media store
 * under new names until the member has BENCH_PHOTOS (500). `npx tsx bench/export.ts` writes
 * bench/results/export.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../server/src/db/index.ts';
import { DiskStore } from '../server/src/media/disk.ts';
import { createFreshDatabase } from '../server/test/postgres.ts';
import { RESULTS_DIR, median, signupBenchMember, table, writeResult } from './common.ts';
import { startCompiledServer } from './compiled-server.ts';
import { photoLikeJpeg } from './gallery-fixtures.ts';

const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 500);
const DISTINCT = Number(process.env.BENCH_DISTINCT ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SLOW_BYTES_PER_SECOND = 2 * 1024 * 1024;
const SLOW_LEAVES_AFTER_MS = 10_000;
const PG_URL = process.env.BENCH_DATABASE_URL;

const database = PG_URL ? await createFreshDatabase(PG_URL, 'orbit_bench_export') : undefined;
if (database) process.env.DATABASE_URL = database.url;
const server = await startCompiledServer('orbit-bench-export-');

/** The server's resident set, from /proc (VmRSS), in MB. */
function rssMb(): number {
  const status = fs.readFileSync(`/proc/${server.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]) / 1024;
}

const { db } = createDatabase({
  databaseUrl: database?.url,
  sqlitePath: path.join(server.dataDir, 'orbit.db'),
});

interface Run {
  client: 'fast' | 'slow, leaves';
  ms: number;
  firstByteMs: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

try {
  const member = await signupBenchMember(server.origin, 'benchexport');
  console.log(`Uploading ${DISTINCT} photos…`);
  for (let index = 0; index < DISTINCT; index += 1) {
    const jpeg = await photoLikeJpeg({
      width: 2000,
      height: 1500,
      sigma: 40 + index,
      blur: 1.2,
      quality: 88,
    });
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), `p${index}.jpg`);
    const response = await fetch(`${server.origin}/api/gallery`, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}` },
      body: form,
    });
    if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  }

  console.log(`Storing ${PHOTOS - DISTINCT} more through the media store…`);
  const store = new DiskStore(path.join(server.dataDir, 'uploads'));
  const uploaded = await db
    .selectFrom('gallery_images')
    .selectAll()
    .where('owner_id', '=', member.userId)
    .execute();
  const lowest = Math.min(...uploaded.map((row) => row.position));
  for (let index = 0; index < PHOTOS - DISTINCT; index += 1) {
    const source = uploaded[index % uploaded.length];
    if (!source) throw new Error('no uploaded photo to copy');
    const read = await store.get(`gallery/${source.display_file}`);
    if (read.status !== 'found') throw new Error('an uploaded picture is missing');
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) chunks.push(chunk as Buffer);
    const name = randomBytes(16).toString('hex');
    await store.put(`gallery/${name}.webp`, Buffer.concat(chunks), 'image/webp');
    await db
      .insertInto('gallery_images')
      .values({
        ...source,
        id: randomUUID(),
        display_file: `${name}.webp`,
        thumb_file: `${name}-thumb.webp`,
        position: lowest - 1 - index,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  const download = async (client: Run['client']): Promise<Run> => {
    await db
      .updateTable('users')
      .set({ last_export_at: null })
      .where('id', '=', member.userId)
      .execute();
    const rssBeforeMb = rssMb();
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      rssPeakMb = Math.max(rssPeakMb, rssMb());
    }, 10);
    const started = performance.now();
    const response = await fetch(`${server.origin}/api/auth/export`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    if (response.status !== 200) throw new Error(`export answered ${response.status}`);
    let bytes = 0;
    let firstByteMs = 0;
    const reader = response.body?.getReader();
    if (!reader) throw new Error('no body');
    for (;;) {
      const { done, value } = (await reader.read()) as { done: boolean; value?: Uint8Array };
      if (done || !value) break;
      if (bytes === 0) firstByteMs = performance.now() - started;
      bytes += value.length;
      if (client === 'slow, leaves') {
        const elapsed = performance.now() - started;
        if (elapsed > SLOW_LEAVES_AFTER_MS) {
          await reader.cancel();
          break;
        }
        const due = (bytes / SLOW_BYTES_PER_SECOND) * 1000 - elapsed;
        if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
      }
    }
    const ms = performance.now() - started;
    clearInterval(sampler);
    rssPeakMb = Math.max(rssPeakMb, rssMb());
    return { client, ms, firstByteMs, bytes, rssBeforeMb, rssPeakMb };
  };

  // One download first, so the figures are of a server that has served one.
  await download('fast');
  const loadBefore = os.loadavg();
  const runs: Run[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    runs.push(await download('fast'));
    console.log(runs.at(-1));
  }
  runs.push(await download('slow, leaves'));
  console.log(runs.at(-1));
  const loadAfter = os.loadavg();

  const setup = database ? 'PostgreSQL' : 'SQLite';
  writeResult(`export-${setup.toLowerCase()}`, { photos: PHOTOS, distinct: DISTINCT, runs });
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const fast = runs.filter((run) => run.client === 'fast');
  const rows = [
    ['Client', 'Time', 'First byte', 'Received', 'Throughput', 'RSS before', 'RSS peak', 'Growth'],
    ...runs.map((run) => [
      run.client,
      `${Math.round(run.ms)} ms`,
      `${Math.round(run.firstByteMs)} ms`,
      mb(run.bytes),
      `${(run.bytes / 1024 / 1024 / (run.ms / 1000)).toFixed(0)} MB/s`,
      `${run.rssBeforeMb.toFixed(0)} MB`,
      `${run.rssPeakMb.toFixed(0)} MB`,
      `${(run.rssPeakMb - run.rssBeforeMb).toFixed(0)} MB`,
    ]),
  ];
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const { machine } = JSON.parse(
    fs.readFileSync(path.join(RESULTS_DIR, `export-${setup.toLowerCase()}.json`), 'utf8'),
  ) as { machine: { cpu: string; cores: number; node: string } };
  const markdown = `# Downloading one's data: 500 photos

\`npx tsx bench/export.ts\`${database ? ' with `BENCH_DATABASE_URL`' : ''}, ${new Date().toISOString().slice(0, 10)}, on ${machine.cpu}, ${machine.cores} cores,
Node ${machine.node}: the compiled server (\`build/server.mjs\`, as \`npm run serve\` runs it) on
${setup}, its pictures on disk. A member with ${PHOTOS} photos: ${DISTINCT} photo-like 2000 × 1500 JPEGs uploaded
through \`POST /api/gallery\` (so their display pictures are the server's own 1600-pixel WebPs), the
rest stored again through the media store under new names. \`GET /api/auth/export\` is timed from
the request to its last byte; the server's VmRSS is sampled every 10 ms from before the request to
the end. After one download to warm the server up: ${RUNS} by a client that reads as fast as it can,
then one by a client that reads 2 MB a second and leaves after 10 s (a server that held what the
client had not read yet would grow by the difference).

${table(rows)}

Median of the fast downloads: **${Math.round(median(fast.map((run) => run.ms)))} ms** for ${mb(fast[0]?.bytes ?? 0)}; the server's
memory grows by at most **${Math.max(...runs.map((run) => run.rssPeakMb - run.rssBeforeMb)).toFixed(0)} MB** whatever the client's pace: one picture is
open at a time and the archive goes out as it is written.

Load average (1/5/15 min) ${load(loadBefore)} before and ${load(loadAfter)} after, on a shared
machine with other work running: the times are an upper bound.
`;
  fs.writeFileSync(path.join(RESULTS_DIR, 'export.md'), markdown);
  console.log(markdown);
} finally {
  await db.destroy();
  await server.stop();
  await database?.drop();
}
