/**
 * GET /uploads/gallery/<name>-thumb.webp served by a server node from an S3 bucket (s3rver, in
 * this process) against the same thumbnail served by a node from its disk, in the same run:
 * both nodes run as child processes, rounds alternate (disk, S3, S3, disk, …) after a warm-up
 * of each, and the table shows each store's median p50 and p99 over its rounds.
 * `npx tsx bench/uploads.ts`
 */
import path from 'node:path';
import type { Result } from 'autocannon';
import { startS3rver } from '../server/test/s3-helpers.ts';
import {
  CONNECTIONS,
  loadWithoutErrors,
  median,
  type RunningServer,
  startServer,
  table,
  writeResult,
} from './common.ts';
import { photoLikeJpeg, signupBenchMember } from './gallery-fixtures.ts';

const ROUND_S = 5;
const WARMUP_S = 2;
/** Rounds per store, taken in the order A B B A A B … so neither always goes first. */
const ROUNDS = 4;

/** A photo-like JPEG; its 480 px thumbnail is what grids load. */
function photo(): Promise<Buffer> {
  return photoLikeJpeg({ width: 1600, height: 1200, sigma: 40, blur: 1.5, quality: 88 });
}

/** Signs a member up on the node, uploads the photo and answers the thumbnail's path and size. */
async function thumbnailOn(
  node: RunningServer,
  jpeg: Buffer,
): Promise<{ url: string; bytes: number }> {
  const { token } = await signupBenchMember(node.origin, 'bench.photos');
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
  const response = await fetch(`${node.origin}/api/gallery`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
  const { image } = (await response.json()) as { image: { thumbnailUrl: string } };
  const thumb = await fetch(`${node.origin}${image.thumbnailUrl}`);
  if (thumb.status !== 200) throw new Error(`the thumbnail answered ${thumb.status}`);
  return { url: image.thumbnailUrl, bytes: (await thumb.arrayBuffer()).byteLength };
}

const s3 = await startS3rver();
const bucket = await s3.createBucket('bench');
const disk = await startServer({ dataPrefix: 'orbit-bench-uploads-disk-' });
const object = await startServer({ dataPrefix: 'orbit-bench-uploads-s3-', env: s3.env(bucket) });

try {
  const jpeg = await photo();
  const targets = {
    disk: { node: disk, ...(await thumbnailOn(disk, jpeg)) },
    s3: { node: object, ...(await thumbnailOn(object, jpeg)) },
  };
  if (targets.disk.bytes !== targets.s3.bytes)
    throw new Error(`the thumbnails differ: ${targets.disk.bytes} and ${targets.s3.bytes} bytes`);

  const load = (store: 'disk' | 's3', seconds: number) =>
    loadWithoutErrors({
      url: `${targets[store].node.origin}${targets[store].url}`,
      duration: seconds,
    });

  await load('disk', WARMUP_S);
  await load('s3', WARMUP_S);
  const rounds: Record<'disk' | 's3', Result[]> = { disk: [], s3: [] };
  for (let i = 0; i < ROUNDS; i += 1) {
    const order = i % 2 === 0 ? (['disk', 's3'] as const) : (['s3', 'disk'] as const);
    for (const store of order) rounds[store].push(await load(store, ROUND_S));
  }

  const summary = (store: 'disk' | 's3') => ({
    p50: median(rounds[store].map((round) => round.latency.p50)),
    p99: median(rounds[store].map((round) => round.latency.p99)),
    requestsPerSecond: median(rounds[store].map((round) => round.requests.average)),
    rounds: rounds[store].map((round) => ({
      p50: round.latency.p50,
      p99: round.latency.p99,
      max: round.latency.max,
      requestsPerSecond: round.requests.average,
    })),
  });
  const results = { disk: summary('disk'), s3: summary('s3') };

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `\nGET ${path.posix.dirname(targets.disk.url)}/…-thumb.webp (${(targets.disk.bytes / 1024).toFixed(1)} KiB); ` +
      `${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_S} s per store, alternating, after ${WARMUP_S} s of warm-up`,
  );
  console.log(
    table([
      ['store', 'p50 (median of rounds)', 'p99 (median of rounds)', 'req/s'],
      ...(['disk', 's3'] as const).map((store) => [
        store === 'disk' ? 'disk (DATA_DIR/uploads)' : 'S3 (s3rver, same machine)',
        ms(results[store].p50),
        ms(results[store].p99),
        results[store].requestsPerSecond.toFixed(0),
      ]),
    ]),
  );
  console.log(`S3 / disk p99: ${(results.s3.p99 / results.disk.p99).toFixed(2)}x`);

  const file = writeResult('uploads', {
    thumbnailBytes: targets.disk.bytes,
    connections: CONNECTIONS,
    roundSeconds: ROUND_S,
    rounds: ROUNDS,
    ...results,
  });
  console.log(`Written to ${path.relative(process.cwd(), file)}`);
} finally {
  await Promise.all([disk.stop(), object.stop()]);
  await s3.close();
}
