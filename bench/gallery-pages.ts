/**
 * GET /api/gallery pages for a member with 2,000 images and one with 40,000 (rows inserted
 * directly, fake file names, reactions on every fifth image): the first and the last page of 60,
 * p50/p99 over many requests one at a time and under load (autocannon), and the bytes each answer
 * sends plain, gzip and br as the server picks them from Accept-Encoding.
 * `npx tsx bench/gallery-pages.ts` (BENCH_REQUESTS sets the one-at-a-time count, 1,000 by default.)
 * Writes bench/results/gallery-pages.json and .md.
 */
import http from 'node:http';
import path from 'node:path';
import { GALLERY_PAGE_DEFAULT } from '../src/contracts/gallery.ts';
import { encodeCursor } from '../server/src/features/gallery/service.ts';
import {
  CONNECTIONS,
  LOAD_SECONDS,
  loadWithoutErrors,
  machine,
  percentile,
  table,
  writeReport,
  writeResult,
} from './common.ts';
import { insertGallery, signupBenchMember, startBenchApp, wireGet } from './gallery-fixtures.ts';

const SIZES = [2_000, 40_000];
const REACTORS = 5;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1_000);
const GOAL_P99_MS = 20;
const GOAL_BYTES = 30 * 1024;

const bench = await startBenchApp('gallery-pages');
const reactors: Awaited<ReturnType<typeof signupBenchMember>>[] = [];
for (let i = 0; i < REACTORS; i++)
  reactors.push(await signupBenchMember(bench.base, `bench.fan${i}`));
const viewer = reactors[0];
if (!viewer) throw new Error('no viewer');
const headers = { authorization: `Bearer ${viewer.token}` };

/** Inserts `count` images for a new member; answers their id and the positions in saved order. */
async function galleryOf(count: number) {
  const owner = await signupBenchMember(bench.base, `bench.owner${count}`);
  const { rows } = await insertGallery(bench.app, owner, reactors, count);
  const positions = rows.map((row) => row.position).sort((a, b) => a - b);
  // The last page of 60 starts after the image that ends the page before it.
  const lastStart = Math.floor((count - 1) / GALLERY_PAGE_DEFAULT) * GALLERY_PAGE_DEFAULT;
  const cursor = encodeCursor(positions[lastStart - 1] ?? 0);
  return {
    first: `/api/gallery?userId=${owner.userId}`,
    last: `/api/gallery?userId=${owner.userId}&cursor=${cursor}`,
    lastCount: count - lastStart,
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One request over the one kept-alive socket. */
const get = (url: string, acceptEncoding?: string) =>
  wireGet(`${bench.base}${url}`, { headers, agent, acceptEncoding });

async function measure(url: string) {
  const plain = await get(url);
  const gzip = await get(url, 'gzip');
  const br = await get(url, 'br, gzip');
  for (const answer of [plain, gzip, br])
    if (answer.status !== 200) throw new Error(`${url} answered ${answer.status}`);
  for (let i = 0; i < 100; i++) await get(url, 'br, gzip');
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) times.push((await get(url, 'br, gzip')).ms);
  times.sort((a, b) => a - b);
  const load = await loadWithoutErrors({
    url: `${bench.base}${url}`,
    headers: { ...headers, 'accept-encoding': 'br, gzip' },
    duration: LOAD_SECONDS,
  });
  return {
    bytes: {
      plain: plain.wireBytes,
      gzip: gzip.wireBytes,
      br: br.wireBytes,
      brEncoding: br.encoding,
    },
    oneAtATime: {
      requests: REQUESTS,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: times.at(-1) ?? 0,
    },
    load: {
      connections: CONNECTIONS,
      seconds: LOAD_SECONDS,
      requestsPerSecond: load.requests.average,
      p50: load.latency.p50,
      p99: load.latency.p99,
    },
  };
}

const results: Record<string, Awaited<ReturnType<typeof measure>> & { images: number }> = {};
for (const size of SIZES) {
  const gallery = await galleryOf(size);
  results[`${size} first`] = { images: GALLERY_PAGE_DEFAULT, ...(await measure(gallery.first)) };
  results[`${size} last`] = { images: gallery.lastCount, ...(await measure(gallery.last)) };
}
await bench.close();
agent.destroy();

const ms = (value: number) => `${value.toFixed(1)} ms`;
const kb = (value: number) => `${(value / 1024).toFixed(1)} KiB`;
const rows = [
  [
    'gallery, page',
    'images',
    'p50 (1 at a time)',
    'p99 (1 at a time)',
    `p99 (${CONNECTIONS} conn.)`,
    'req/s',
    'plain',
    'gzip',
    'br',
  ],
  ...Object.entries(results).map(([name, r]) => [
    name,
    String(r.images),
    ms(r.oneAtATime.p50),
    ms(r.oneAtATime.p99),
    ms(r.load.p99),
    r.load.requestsPerSecond.toFixed(0),
    kb(r.bytes.plain),
    kb(r.bytes.gzip),
    kb(r.bytes.br),
  ]),
];
const printed = table(rows);
console.log(`\nGET /api/gallery pages of ${GALLERY_PAGE_DEFAULT}\n${printed}`);

const firstSmall = results['2000 first'];
const met =
  firstSmall &&
  firstSmall.oneAtATime.p99 <= GOAL_P99_MS &&
  Math.min(firstSmall.bytes.gzip, firstSmall.bytes.br) <= GOAL_BYTES;
const markdown = `# Gallery pages

\`npx tsx bench/gallery-pages.ts\` on ${new Date().toISOString().slice(0, 10)} (${JSON.stringify(machine())}).

Members with 2,000 and 40,000 images (rows inserted directly; reactions from ${REACTORS} members on
every 5th image), read by another member. First page: no cursor; last page: the
cursor of the page before it. "1 at a time": ${REQUESTS} requests in a row on one kept-alive
connection after 100 to warm up, \`Accept-Encoding: br, gzip\`. "${CONNECTIONS} conn.": autocannon,
${CONNECTIONS} connections for ${LOAD_SECONDS} s (p99 there includes waiting behind the other
connections on one event loop). Bytes are what went over the wire for one answer.

| ${rows[0]?.join(' | ')} |
| ${rows[0]?.map(() => '---').join(' | ')} |
${rows
  .slice(1)
  .map((row) => `| ${row.join(' | ')} |`)
  .join('\n')}

Goal for the 2,000-image member's first page: p99 ≤ ${GOAL_P99_MS} ms and ≤ 30 KB compressed —
${met ? 'met' : 'not met'}. Before paging the same member's one answer was p99 774 ms and 1.92 MB
(128 KB compressed), and 32,767 images answered 500.
`;
writeReport('gallery-pages', markdown);
const file = writeResult('gallery-pages', {
  goal: { p99: GOAL_P99_MS, bytes: GOAL_BYTES },
  results,
});
console.log(`Written to ${path.relative(process.cwd(), file)} and gallery-pages.md`);
