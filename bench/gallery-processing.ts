/**
 * Gallery image processing: galleryFiles (display size + thumbnail, both WebP, metadata dropped)
 * written to the disk store, on a 12-megapixel JPEG, against sharp doing one 1600 px WebP resize of the same file,
 * in the same run. `npx tsx bench/gallery-processing.ts`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createImageQueue, galleryFiles } from '../server/src/lib/images.ts';
import { DiskStore } from '../server/src/media/disk.ts';
import { percentile, table, writeResult } from './common.ts';
import { PHOTO_HEIGHT, PHOTO_WIDTH, twelveMegapixelJpeg } from './gallery-fixtures.ts';

const RUNS = 20;
const WARMUP = 2;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-gallery-processing-'));
const input = path.join(dir, 'photo.jpg');
const jpeg = await twelveMegapixelJpeg();
fs.writeFileSync(input, jpeg);
const disk = new DiskStore(path.join(dir, 'uploads'));
// One picture at a time, as the server's queue runs each.
const images = createImageQueue({ workers: 1, waiting: 0 });

const baselineRun = () =>
  sharp(input)
    .rotate()
    .resize(1600, 1600, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 82 })
    .toBuffer();
const storeRun = async () => {
  const files = await galleryFiles(images, input);
  const objects = [files.display, files.thumb];
  await Promise.all(objects.map((file) => disk.put(file.key, file.body, file.contentType)));
  await disk.remove(objects.map((file) => file.key));
};

async function time(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

// The two alternate (and swap which goes first), so a busy machine's drift hits both alike.
for (let i = 0; i < WARMUP; i++) {
  await baselineRun();
  await storeRun();
}
const store: number[] = [];
const baseline: number[] = [];
for (let i = 0; i < RUNS; i++) {
  if (i % 2 === 0) {
    baseline.push(await time(baselineRun));
    store.push(await time(storeRun));
  } else {
    store.push(await time(storeRun));
    baseline.push(await time(baselineRun));
  }
}
store.sort((a, b) => a - b);
baseline.sort((a, b) => a - b);
fs.rmSync(dir, { recursive: true, force: true });

const stats = (times: number[]) => ({
  n: times.length,
  p50: percentile(times, 50),
  p95: percentile(times, 95),
  max: times.at(-1) ?? Number.NaN,
});
const storeStats = stats(store);
const baselineStats = stats(baseline);
const ratio = storeStats.p50 / baselineStats.p50;
const ms = (value: number) => `${value.toFixed(0)} ms`;

console.log(
  `\nInput: ${PHOTO_WIDTH}x${PHOTO_HEIGHT} JPEG, ${(jpeg.length / 1024 / 1024).toFixed(1)} MB; sharp concurrency ${sharp.concurrency()}, ${os.cpus().length} cores`,
);
console.log(
  table([
    ['', 'n', 'p50', 'p95', 'max'],
    [
      'galleryFiles + disk store (1600 + 480 WebP, written)',
      String(storeStats.n),
      ms(storeStats.p50),
      ms(storeStats.p95),
      ms(storeStats.max),
    ],
    [
      'sharp alone (one 1600 px WebP)',
      String(baselineStats.n),
      ms(baselineStats.p50),
      ms(baselineStats.p95),
      ms(baselineStats.max),
    ],
  ]),
);
console.log(`\ngalleryFiles + write / sharp alone (p50): ${ratio.toFixed(2)}x`);

const file = writeResult('gallery-processing', {
  input: { width: PHOTO_WIDTH, height: PHOTO_HEIGHT, bytes: jpeg.length },
  galleryFiles: storeStats,
  sharpAlone: baselineStats,
  ratioP50: ratio,
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
