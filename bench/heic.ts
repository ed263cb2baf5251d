/**
 * An iPhone's 12 MP HEIC (HEVC, 4032 x 3024) against a 12 MP JPEG (4000 x 3000) through
 * galleryFiles, the server's own path (display size + thumbnail, both WebP). The HEIC is decoded by
 * libheif in WebAssembly, in a thread of its own; the JPEG by sharp. Each format runs in a process
 * of its own, which reports the time per photo, its peak resident memory (VmHWM, which counts the
 * decoder's thread) above what it held before the first photo, and the longest the event loop was
 * held meanwhile. `npx tsx bench/heic.ts`
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { ROOT, percentile, table, writeResult } from './common.ts';
import { twelveMegapixelJpeg } from './gallery-fixtures.ts';

const RUNS = 8;
const HEIC = path.join(ROOT, 'bench', 'fixtures', 'photo-12mp.heic');

interface Measured {
  times: number[];
  baselineMb: number;
  peakMb: number;
  loopMaxMs: number;
  display: string;
}

/** Resident memory at its peak so far, in MB, from /proc. */
function peakMb(): number {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

async function measure(input: string): Promise<Measured> {
  const { createImageQueue, galleryFiles } = await import('../server/src/lib/images.ts');
  const queue = createImageQueue({ workers: 1, waiting: 0 });
  const baselineMb = peakMb();
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const times: number[] = [];
  let display = '';
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const files = await galleryFiles(queue, input);
    times.push(performance.now() - started);
    display = `${files.width}x${files.height}`;
  }
  loop.disable();
  return { times, baselineMb, peakMb: peakMb(), loopMaxMs: loop.max / 1e6, display };
}

if (process.argv[2] === '--measure') {
  const result = await measure(process.argv[3] ?? '');
  process.send?.(result, () => process.exit(0));
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-heic-'));
  const jpegPath = path.join(dir, 'photo.jpg');
  const jpeg = await twelveMegapixelJpeg();
  fs.writeFileSync(jpegPath, jpeg);

  const inProcess = (input: string) =>
    new Promise<Measured>((resolve, reject) => {
      const child = fork(fileURLToPath(import.meta.url), ['--measure', input]);
      child.once('message', (message) => resolve(message as Measured));
      child.once('error', reject);
      child.once('exit', (code) => {
        if (code !== 0) reject(new Error(`the measuring process ended with ${code}`));
      });
    });
  const rows: [string, number, Measured][] = [
    ['HEIC 4032x3024 (libheif, WebAssembly)', fs.statSync(HEIC).size, await inProcess(HEIC)],
    ['JPEG 4000x3000 (sharp)', jpeg.length, await inProcess(jpegPath)],
  ];
  fs.rmSync(dir, { recursive: true, force: true });

  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const mb = (value: number) => `${value.toFixed(0)} MB`;
  const summary = rows.map(([name, bytes, measured]) => {
    const sorted = [...measured.times].sort((a, b) => a - b);
    return {
      name,
      bytes,
      display: measured.display,
      runs: sorted.length,
      p50: percentile(sorted, 50),
      max: sorted.at(-1) ?? Number.NaN,
      peakAboveBaselineMb: measured.peakMb - measured.baselineMb,
      peakMb: measured.peakMb,
      loopMaxMs: measured.loopMaxMs,
    };
  });
  console.log(
    `\n${os.cpus().length} cores; ${RUNS} photos each, one at a time, as the queue runs them`,
  );
  console.log(
    table([
      ['', 'file', 'p50', 'max', 'peak RSS', 'peak over start', 'event loop held (max)'],
      ...summary.map((row) => [
        row.name,
        `${(row.bytes / 1024 / 1024).toFixed(1)} MB`,
        ms(row.p50),
        ms(row.max),
        mb(row.peakMb),
        mb(row.peakAboveBaselineMb),
        ms(row.loopMaxMs),
      ]),
    ]),
  );
  const file = writeResult('heic', { runs: RUNS, formats: summary });
  console.log(`Written to ${path.relative(process.cwd(), file)}`);
}
