/**
 * The server's peak memory (VmHWM, resident) while 16 members change their profile picture at
 * once, each a 19 MB PNG: a picture streams to a temporary file and is read from there, never
 * held whole in memory. `npx tsx bench/avatar-memory.ts`
 */
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { machine, signupBenchMember, startServer, table, writeResult } from './common.ts';

const CONCURRENT = 16;
/** 2500 x 2500 pixels of noise, which no PNG compression shrinks: some 19 MB. */
const EDGE = 2500;

/** Resident memory now and at its peak so far, in MB, from /proc. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

const png = await sharp({
  create: {
    width: EDGE,
    height: EDGE,
    channels: 3,
    background: '#777',
    noise: { type: 'gaussian', mean: 128, sigma: 60 },
  },
})
  .png({ compressionLevel: 1 })
  .toBuffer();

const server = await startServer({ dataPrefix: 'orbit-bench-avatar-memory-' });
const pid = server.child.pid;
if (pid === undefined) throw new Error('the server has no process id');
// One after the other, so signing up (argon2 uses memory of its own) is done before measuring.
const members: { token: string }[] = [];
for (let index = 0; index < CONCURRENT; index += 1)
  members.push(await signupBenchMember(server.origin, `bench.avatar${index}`));

async function changePicture(token: string): Promise<number> {
  const form = new FormData();
  form.append('profilePic', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
  const response = await fetch(`${server.origin}/api/auth/profile`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  await response.arrayBuffer();
  return response.status;
}

// One first, so sharp's first-use memory is in the baseline.
await changePicture(members[0]?.token ?? '');
const before = memoryOf(pid);
const started = performance.now();
const statuses = await Promise.all(members.map((member) => changePicture(member.token)));
const wallMs = performance.now() - started;
const after = memoryOf(pid);
await server.stop();

const mb = (value: number) => `${value.toFixed(0)} MB`;
console.log(
  `\n${CONCURRENT} concurrent profile pictures of ${(png.length / 1024 / 1024).toFixed(1)} MB, answered ${statuses.join(' ')} in ${(wallMs / 1000).toFixed(1)} s`,
);
console.log(
  table([
    ['server memory', 'resident'],
    ['before', mb(before.rss)],
    ['peak before (signups)', mb(before.peak)],
    ['peak during', mb(after.peak)],
    ['peak − before', mb(after.peak - before.rss)],
  ]),
);
const file = writeResult('avatar-memory', {
  machine: machine(),
  picture: { edge: EDGE, bytes: png.length },
  uploads: { n: CONCURRENT, statuses, wallMs },
  memoryMb: {
    before: before.rss,
    peakBefore: before.peak,
    peak: after.peak,
    added: after.peak - before.rss,
  },
});
console.log(`Written to ${path.relative(process.cwd(), file)}`);
