/**
 * GET /api/gallery?userId= for a member with 2,000 images (rows inserted directly, fake file
 * names) and some reactions: latency under load and the bytes each answer sends, plain and when
 * the client accepts gzip. `npx tsx bench/gallery-list.ts`
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import { CONNECTIONS, LOAD_SECONDS, LOAD_WORKERS, table, writeResult } from './common.ts';
import { signupBenchMember, startBenchApp } from './gallery-fixtures.ts';

const IMAGES = 2_000;
const REACTORS = 5;
/** Every fifth image gets reactions from each reactor: two thirds likes, one third dislikes. */
const REACTED_EVERY = 5;

const bench = await startBenchApp('gallery-list');
const owner = await signupBenchMember(bench.base, 'bench.owner');
const reactors: Awaited<ReturnType<typeof signupBenchMember>>[] = [];
for (let i = 0; i < REACTORS; i++)
  reactors.push(await signupBenchMember(bench.base, `bench.fan${i}`));

const folders = ['All', 'Trips', 'Pets', 'Family'];
const start = Date.UTC(2025, 0, 1);
const rows = Array.from({ length: IMAGES }, (_, i) => {
  const name = randomBytes(16).toString('hex');
  return {
    id: randomUUID(),
    owner_id: owner.userId,
    display_file: `${name}.webp`,
    thumb_file: `${name}-thumb.webp`,
    width: 1600,
    height: 1200,
    bytes: 350_000,
    folder: folders[i % folders.length] ?? 'All',
    caption: i % 3 === 0 ? `Picture number ${i}` : '',
    position: -(i + 1),
    created_at: new Date(start + i * 60_000).toISOString(),
  };
});
const reactions = rows
  .filter((_, i) => i % REACTED_EVERY === 0)
  .flatMap((row, i) =>
    reactors.map((reactor, j) => ({
      image_id: row.id,
      user_id: reactor.userId,
      kind: (i + j) % 3 === 2 ? ('dislike' as const) : ('like' as const),
      created_at: row.created_at,
    })),
  );
for (let i = 0; i < rows.length; i += 500) {
  await bench.app.db
    .insertInto('gallery_images')
    .values(rows.slice(i, i + 500))
    .execute();
}
for (let i = 0; i < reactions.length; i += 500) {
  await bench.app.db
    .insertInto('image_reactions')
    .values(reactions.slice(i, i + 500))
    .execute();
}

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
