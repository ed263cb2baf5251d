/**
 * Event-loop delay while the app takes 10 concurrent uploads of a 12-megapixel JPEG over HTTP:
 * the decoding and resizing must run off the main thread, so the loop stays responsive.
 * `npx tsx bench/upload-event-loop.ts`
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile, table, writeResult } from './common.ts';
import { signupBenchMember, startBenchApp, twelveMegapixelJpeg } from './gallery-fixtures.ts';

const CONCURRENT = 10;
/** The sampling timer: an idle loop reads about this much, so the figures below include it. */
const RESOLUTION_MS = 1;

const jpeg = await twelveMegapixelJpeg();
const bench = await startBenchApp('upload-event-loop');
const { token } = await signupBenchMember(bench.base, 'bench.uploader');

const photo = path.join(bench.dataDir, 'photo.jpg');
fs.writeFileSync(photo, jpeg);

/**
 * One upload by a curl process, so the client's work never runs on the loop being measured.
 * Answers the response time in ms.
 */
function upload(): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      [
        '-sS',
        '-o',
        '/dev/null',
        '-w',
        '%{http_code} %{time_total}',
        '-H',
        `authorization: Bearer ${token}`,
        '-F',
        'folder=Bench',
        '-F',
        `image=@${photo};type=image/jpeg`,
        `${bench.base}/api/gallery`,
      ],
      (error, stdout) => {
        if (error) return reject(new Error(`curl failed: ${error.message}`));
        const [status, seconds] = stdout.trim().split(' ');
        if (status !== '201') return reject(new Error(`upload answered ${status}`));
        resolve(Number(seconds) * 1000);
      },
    );
  });
}

// One upload first, so the first-use costs (sharp's thread pool, the statement cache) are paid.
await upload();

// The loop measured is the app's own: the app runs in this process, the clients are curl processes.
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();
const started = performance.now();
const times = await Promise.all(Array.from({ length: CONCURRENT }, () => upload()));
const wallMs = performance.now() - started;
histogram.disable();
await bench.close();

const ns = (value: number) => value / 1e6;
const delay = {
  p50: ns(histogram.percentile(50)),
  p99: ns(histogram.percentile(99)),
  max: ns(histogram.max),
  mean: ns(histogram.mean),
};
times.sort((a, b) => a - b);
const uploads = {
  n: CONCURRENT,
  p50: percentile(times, 50),
  max: times.at(-1) ?? Number.NaN,
  wallMs,
};
const ms = (value: number) => `${value.toFixed(1)} ms`;

console.log(
  `\n${CONCURRENT} concurrent uploads of a 4000x3000 JPEG (${(jpeg.length / 1024 / 1024).toFixed(1)} MB) over HTTP, all done in ${ms(wallMs)}`,
);
console.log(
  table([
    ['event-loop delay', 'p50', 'p99', 'max', 'mean'],
    ['during the uploads', ms(delay.p50), ms(delay.p99), ms(delay.max), ms(delay.mean)],
  ]),
);
console.log(`Upload response time: p50 ${ms(uploads.p50)}, max ${ms(uploads.max)}`);
console.log(
  `(monitorEventLoopDelay resolution ${RESOLUTION_MS} ms: an idle loop reads about ${RESOLUTION_MS} ms.)`,
);

const file = writeResult('upload-event-loop', { uploads, eventLoopDelayMs: delay });
console.log(`Written to ${path.relative(process.cwd(), file)}`);
