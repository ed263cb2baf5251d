/**
 * Login latency (argon2id, on libuv's pool) while 8 uploads of a 7000 x 7000 PNG (49 megapixels)
 * run at once against the real server: pictures go through one queue, so the pool keeps threads
 * for logins. Idle logins first, then logins one after another until every upload has answered.
 * `npx tsx bench/upload-login-latency.ts`
 */
import path from 'node:path';
import sharp from 'sharp';
import {
  BENCH_PASSWORD,
  machine,
  percentile,
  signupBenchMember,
  startServer,
  table,
  writeResult,
} from './common.ts';

const CONCURRENT = 8;
const IDLE_LOGINS = 20;
const EDGE = 7000;

/**
 * A 7000 x 7000 PNG of some 14 MB: a 700 px strip of noise repeated across, so it stays under
 * the 20 MB limit while every pixel still has to be decoded.
 */
async function largePng(): Promise<Buffer> {
  const strip = await sharp({
    create: {
      width: EDGE / 10,
      height: EDGE,
      channels: 3,
      background: { r: 90, g: 120, b: 160 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();
  return sharp(strip)
    .extend({ right: EDGE - EDGE / 10, extendWith: 'repeat' })
    .png({ compressionLevel: 6 })
    .toBuffer();
}

const png = await largePng();
// Each uploader is a member of its own: the per-member limit is not what is measured here.
const server = await startServer({ dataPrefix: 'orbit-bench-upload-login-' });
const uploaders = await Promise.all(
  Array.from({ length: CONCURRENT }, (_, index) =>
    signupBenchMember(server.origin, `bench.up${index}`),
  ),
);
await signupBenchMember(server.origin, 'bench.login');

async function login(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${server.origin}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ identifier: 'bench.login', password: BENCH_PASSWORD }),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  return performance.now() - started;
}

async function upload(token: string): Promise<{ status: number; ms: number }> {
  const form = new FormData();
  form.append('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'large.png');
  const started = performance.now();
  const response = await fetch(`${server.origin}/api/gallery`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

// First use (argon2, sharp) paid before anything is measured.
await login();
const idle: number[] = [];
for (let index = 0; index < IDLE_LOGINS; index += 1) idle.push(await login());

let uploading = true;
const started = performance.now();
const uploads = Promise.all(uploaders.map((member) => upload(member.token))).finally(() => {
  uploading = false;
});
const loaded: number[] = [];
while (uploading) loaded.push(await login());
const results = await uploads;
const wallMs = performance.now() - started;
await server.stop();

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const row = (name: string, values: number[]) => {
  const s = sorted(values);
  return [
    name,
    String(values.length),
    `${percentile(s, 50).toFixed(1)} ms`,
    `${percentile(s, 99).toFixed(1)} ms`,
    `${(s.at(-1) ?? Number.NaN).toFixed(1)} ms`,
  ];
};
const statuses = results.map((result) => result.status);
console.log(
  `\n${CONCURRENT} concurrent uploads of a ${EDGE}x${EDGE} PNG (${(png.length / 1024 / 1024).toFixed(1)} MB), answered ${statuses.join(' ')} in ${(wallMs / 1000).toFixed(1)} s`,
);
console.log(
  table([
    ['login', 'n', 'p50', 'p99', 'max'],
    row('idle', idle),
    row('during the uploads', loaded),
  ]),
);
const file = writeResult('upload-login-latency', {
  machine: machine(),
  png: { edge: EDGE, bytes: png.length },
  uploads: { n: CONCURRENT, statuses, wallMs },
  loginMs: {
    idle: { n: idle.length, p50: percentile(sorted(idle), 50), p99: percentile(sorted(idle), 99) },
    duringUploads: {
      n: loaded.length,
      p50: percentile(sorted(loaded), 50),
      p99: percentile(sorted(loaded), 99),
    },
  },
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
