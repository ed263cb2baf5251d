/**
 * GET /api/gallery?userId= for a member with 2,000 images (rows inserted directly, fake file
 * names) and some reactions: latency under load and the bytes each answer sends, plain and when
 * the client accepts gzip. `npx tsx bench/gallery-list.ts`
 */
import http from 'node:http';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { CONNECTIONS, LOAD_SECONDS, LOAD_WORKERS, table, writeResult } from './common.ts';
import { insertGallery, signupBenchMember, startBenchApp } from './gallery-fixtures.ts';

const IMAGES = 2_000;
/** Every fifth image gets reactions from each reactor: two thirds likes, one third dislikes. */
const REACTORS = 5;

const bench = await startBenchApp('gallery-list');
const owner = await signupBenchMember(bench.base, 'bench.owner');
const reactors: Awaited<ReturnType<typeof signupBenchMember>>[] = [];
for (let i = 0; i < REACTORS; i++)
  reactors.push(await signupBenchMember(bench.base, `bench.fan${i}`));

const { reactions } = await insertGallery(bench.app, owner, reactors, IMAGES);

const listPath = `/api/gallery?userId=${owner.userId}`;
const viewer = reactors[0];
if (!viewer) throw new Error('no viewer');
const headers = { authorization: `Bearer ${viewer.token}` };

/** One raw request, so the encoding and length are what went over the wire. */
function raw(acceptEncoding?: string) {
  return new Promise<{
    status: number;
    encoding: string;
    contentLength: string;
    wireBytes: number;
  }>((resolve, reject) => {
    const request = http.get(
      `${bench.base}${listPath}`,
      { headers: { ...headers, ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) } },
      (response) => {
        let wireBytes = 0;
        response.on('data', (chunk: Buffer) => (wireBytes += chunk.length));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            encoding: response.headers['content-encoding'] ?? 'identity',
            contentLength: response.headers['content-length'] ?? '(chunked)',
            wireBytes,
          }),
        );
      },
    );
    request.on('error', reject);
  });
}

const plain = await raw();
const gzip = await raw('gzip, br');
if (plain.status !== 200 || gzip.status !== 200) throw new Error(`list answered ${plain.status}`);

const options = {
  url: `${bench.base}${listPath}`,
  headers,
  connections: CONNECTIONS,
  ...LOAD_WORKERS,
};
await autocannon({ ...options, duration: 2 });
const result: Result = await autocannon({ ...options, duration: LOAD_SECONDS });
await bench.close();
if (result.non2xx > 0 || result.errors > 0)
  throw new Error(`${result.non2xx} non-2xx answers and ${result.errors} errors`);

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (value: number) => `${(value / 1024).toFixed(0)} KiB`;
console.log(
  `\nGET /api/gallery?userId= — ${IMAGES} images, ${reactions.length} reactions; ${CONNECTIONS} connections for ${LOAD_SECONDS} s`,
);
console.log(
  table([
    ['req/s', 'latency p50', 'latency p99', 'max'],
    [
      result.requests.average.toFixed(0),
      ms(result.latency.p50),
      ms(result.latency.p99),
      ms(result.latency.max),
    ],
  ]),
);
console.log('\nBytes per answer');
console.log(
  table([
    ['request', 'content-encoding', 'content-length', 'bytes on the wire'],
    ['no Accept-Encoding', plain.encoding, plain.contentLength, kb(plain.wireBytes)],
    ['Accept-Encoding: gzip, br', gzip.encoding, gzip.contentLength, kb(gzip.wireBytes)],
  ]),
);
if (gzip.encoding === 'identity') console.log('The server does not compress API answers.');

const file = writeResult('gallery-list', {
  images: IMAGES,
  reactions: reactions.length,
  load: {
    connections: CONNECTIONS,
    durationSeconds: LOAD_SECONDS,
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyMax: result.latency.max,
  },
  bytes: { plain, gzip },
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
