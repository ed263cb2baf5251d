/**
 * GET /api/gallery?userId= for a member with 2,000 images (rows inserted directly, fake file
 * names) and some reactions: latency under load and the bytes each answer sends, plain and when
 * the client accepts gzip. `npx tsx bench/gallery-list.ts`
 */
import path from 'node:path';
import { CONNECTIONS, LOAD_SECONDS, loadWithoutErrors, table, writeResult } from './common.ts';
import { insertGallery, signupBenchMember, startBenchApp, wireGet } from './gallery-fixtures.ts';

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

/** The list as it goes over the wire, plain or in the encoding the server picks. */
const raw = (acceptEncoding?: string) =>
  wireGet(`${bench.base}${listPath}`, { headers, acceptEncoding });

const plain = await raw();
const gzip = await raw('gzip, br');
if (plain.status !== 200 || gzip.status !== 200) throw new Error(`list answered ${plain.status}`);

const options = { url: `${bench.base}${listPath}`, headers };
await loadWithoutErrors({ ...options, duration: 2 });
const result = await loadWithoutErrors({ ...options, duration: LOAD_SECONDS });
await bench.close();

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
