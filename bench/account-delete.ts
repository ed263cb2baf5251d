/**
 * Deleting a large account (docs/product.md "Leaving"): a member with 2,000 photos (both sizes of
 * each really in the store), 500 friends who each liked a photo, and 5,000 notifications, among
 * other members' notifications (BENCH_BACKGROUND, 100,000). Times `DELETE /api/auth/account` over a
 * real socket, apart the removal of the pictures after the commit, and counts the statements and
 * the most values any of them bound.
 *
 *   npx tsx bench/account-delete.ts                                  SQLite (temporary data directory)
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/account-delete.ts  PostgreSQL (a fresh database
 *                                                                    on that server, dropped after)
 *
 * BENCH_RUNS (3): members deleted, each seeded anew. BENCH_SHOW=1 prints each statement of a
 * deletion with its time. Writes bench/results/account-delete.md from the entries of both
 * databases that account-delete.json holds.
 */
import fs from 'node:fs';
import os from 'node:os';
import pLimit from 'p-limit';
import sharp from 'sharp';
import { insertMembers, seedLargeAccount } from '../server/test/large-account.ts';
import {
  BENCH_PASSWORD,
  median,
  signupBenchMember,
  statementRecorder,
  writeReport,
  writeResultEntry,
} from './common.ts';
import { startBenchApp } from './gallery-fixtures.ts';

const SIZE = { photos: 2_000, friends: 500, notifications: 5_000 };
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BACKGROUND = Number(process.env.BENCH_BACKGROUND ?? 100_000);
const PG_URL = process.env.BENCH_DATABASE_URL;
const SETUP = PG_URL ? 'postgres' : 'sqlite';
const SETUPS = ['sqlite', 'postgres'] as const;

interface Run {
  totalMs: number;
  picturesMs: number;
  /** The statements' own time, as the driver measured each. */
  databaseMs: number;
  statements: number;
  mostValues: number;
}

interface Entry {
  at: string;
  size: typeof SIZE;
  background: number;
  seedMs: number;
  runs: Run[];
  loadBefore: number[];
  loadAfter: number[];
}

const recorder = statementRecorder();

async function main() {
  const bench = await startBenchApp('account-delete', {
    postgresUrl: PG_URL,
    onQuery: recorder.onQuery,
  });
  const { app, base } = bench;
  const { db } = app;
  try {
    const seedStarted = performance.now();
    // The rest of the community: members and notifications among them.
    const others = await insertMembers(db, 200, 'bg');
    for (let start = 0; start < BACKGROUND; start += 50) {
      const rows = Array.from({ length: Math.min(50, BACKGROUND - start) }, (_, index) => ({
        recipient_id: others[(start + index) % others.length] as string,
        type: 'follow',
        actor_id: others[(start + index + 1) % others.length] as string,
        message: ' accepted your friend request',
        link: '/settings',
        request_id: null,
        image_id: null,
        read_at: null,
        created_at: new Date().toISOString(),
      }));
      await db.insertInto('notifications').values(rows).execute();
    }
    const display = await sharp({
      create: { width: 400, height: 300, channels: 3, background: '#4a6fa5' },
    })
      .webp()
      .toBuffer();
    const thumb = await sharp(display).resize(160).webp().toBuffer();
    const seedMs = performance.now() - seedStarted;

    // Time spent removing pictures after the commit.
    let picturesMs = 0;
    const discard = app.media.discard.bind(app.media);
    app.media.discard = async (keys) => {
      const started = performance.now();
      await discard(keys);
      picturesMs += performance.now() - started;
    };

    const loadBefore = os.loadavg();
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const username = `leaver${run}_${Date.now().toString(36)}`;
      const member = await signupBenchMember(base, username);
      const seeded = await seedLargeAccount(db, member.userId, SIZE);
      const write = pLimit(8);
      await Promise.all(
        seeded.pictures.flatMap((picture) => [
          write(() => app.media.store.put(picture.display, display, 'image/webp')),
          write(() => app.media.store.put(picture.thumb, thumb, 'image/webp')),
        ]),
      );

      picturesMs = 0;
      const started = performance.now();
      const { result: response, statements } = await recorder.during(async () => {
        const answer = await fetch(`${base}/api/auth/account`, {
          method: 'DELETE',
          headers: {
            authorization: `Bearer ${member.token}`,
            'content-type': 'application/json',
          },
          body: JSON.stringify({ username, password: BENCH_PASSWORD }),
        });
        await answer.arrayBuffer();
        return answer;
      });
      const totalMs = performance.now() - started;
      if (process.env.BENCH_SHOW)
        for (const event of statements)
          console.log(`${Math.round(event.queryDurationMillis)} ms`, event.query.sql.slice(0, 120));
      if (response.status !== 200) throw new Error(`DELETE answered ${response.status}`);
      const left = await app.media.store.stat(seeded.pictures[0]?.display ?? '');
      if (left) throw new Error('a picture of the deleted member is still in the store');
      runs.push({
        totalMs,
        picturesMs,
        databaseMs: statements.reduce((sum, event) => sum + event.queryDurationMillis, 0),
        statements: statements.length,
        mostValues: Math.max(...statements.map((event) => event.query.parameters.length)),
      });
      console.log(`run ${run + 1}:`, runs.at(-1));
    }

    const entry: Entry = {
      at: new Date().toISOString(),
      size: SIZE,
      background: BACKGROUND,
      seedMs,
      runs,
      loadBefore,
      loadAfter: os.loadavg(),
    };
    const file = writeResultEntry('account-delete', SETUPS, SETUP, entry);
    reportBothDatabases(file);
  } finally {
    await bench.close();
  }
}

function reportBothDatabases(file: string) {
  const all = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    machine: { cpu: string; cores: number; node: string };
  } & Partial<Record<(typeof SETUPS)[number], Entry>>;
  const ms = (value: number) => `${Math.round(value)} ms`;
  const load = (values: number[]) => values.map((value) => value.toFixed(2)).join(' / ');
  const rows = SETUPS.flatMap((name) => {
    const entry = all[name];
    if (!entry) return [];
    const total = median(entry.runs.map((run) => run.totalMs));
    const pictures = median(entry.runs.map((run) => run.picturesMs));
    const database = median(entry.runs.map((run) => run.databaseMs));
    return [
      `| ${name} | ${entry.runs.length} | ${entry.runs.map((run) => ms(run.totalMs)).join(', ')} | ${ms(total)} | ${ms(total - pictures)} | ${ms(database)} | ${ms(pictures)} | ${entry.runs[0]?.statements ?? 0} | ${Math.max(...entry.runs.map((run) => run.mostValues))} | ${load(entry.loadBefore)} → ${load(entry.loadAfter)} | ${entry.at.slice(0, 10)} |`,
    ];
  });
  const report = `# Deleting a large account

\`npx tsx bench/account-delete.ts\` (SQLite) and \`BENCH_DATABASE_URL=postgres://… npx tsx
bench/account-delete.ts\` (PostgreSQL), on ${all.machine.cpu}, ${all.machine.cores} cores, Node
${all.machine.node}. The real app in the benchmark's process, its pictures on disk. Each run signs a
member up and gives them ${SIZE.photos.toLocaleString('en')} photos (both sizes of each written to the
store), ${SIZE.friends} friends who each liked one of them, and ${SIZE.notifications.toLocaleString('en')} notifications, among
${BACKGROUND.toLocaleString('en')} notifications of ${200} other members; then times
\`DELETE /api/auth/account\` over a real socket, from the request to the answer. **Rows** is
everything before the pictures: the password check (argon2), the transaction, and telling the
friends, and **of which statements** the statements' own time as the driver measured it (medians
each); **pictures** is removing the ${(SIZE.photos * 2 + 1).toLocaleString('en')} files after the
commit, in removals of 500. Statements count every statement of the request (session lookup and
transaction control included); **most values** is the most any one of them bound.

| database | runs | each | median | rows | of which statements | pictures | statements | most values | load average (1/5/15 min, before → after) | date |
|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

The machine is shared: other work ran beside the benchmark (see the load average), so the figures
are an upper bound of what the deletion itself costs.
`;
  writeReport('account-delete', report);
  console.log(report);
}

await main();
