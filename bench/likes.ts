/**
 * What a reaction and a friend request cost the database: statements per call (every statement,
 * transaction control included, the session lookup counted apart) and the latency of
 * PATCH /api/gallery/:ref over a real socket, one call at a time.
 *
 *   npx tsx bench/likes.ts                                    SQLite (temporary data directory)
 *   BENCH_DATABASE_URL=postgres://… npx tsx bench/likes.ts    PostgreSQL (a fresh database on
 *                                                             that server, dropped afterwards)
 *
 * BENCH_ROUNDS (default 300): like, dislike and take back, each this many times.
 */
import sharp from 'sharp';
import {
  signupBenchMember,
  statementRecorder,
  summary,
  table,
  writeResultEntry,
} from './common.ts';
import { startBenchApp } from './gallery-fixtures.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const PG_URL = process.env.BENCH_DATABASE_URL;
const SETUP = PG_URL ? 'postgres' : 'sqlite';

const recorder = statementRecorder();
const isSession = (sql: string) => /from "sessions"/i.test(sql);
const isNotification = (sql: string) => sql.includes('"notifications"');

async function main() {
  const bench = await startBenchApp('likes', {
    postgresUrl: PG_URL,
    logLevel: 'silent',
    onQuery: recorder.onQuery,
  });
  const { base } = bench;
  try {
    const owner = await signupBenchMember(base, 'likeowner');
    const fan = await signupBenchMember(base, 'likefan');
    const friend = await signupBenchMember(base, 'likefriend');

    const form = new FormData();
    const jpeg = await sharp({
      create: { width: 320, height: 240, channels: 3, background: '#36c' },
    })
      .jpeg()
      .toBuffer();
    form.append('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
    const uploaded = await fetch(`${base}/api/gallery`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    const { image } = (await uploaded.json()) as { image: { id: string } };

    const patch = (token: string, body: object) =>
      fetch(`${base}/api/gallery/${image.id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then(async (response) => {
        if (response.status !== 200) throw new Error(`PATCH answered ${response.status}`);
        await response.arrayBuffer();
      });

    // Statements of each kind of call, once.
    const statementsOf = async (work: () => Promise<void>) => {
      const statements = (await recorder.during(work)).statements.map((event) => event.query.sql);
      return {
        session: statements.filter(isSession).length,
        reaction: statements.filter((sql) => !isSession(sql) && !isNotification(sql)).length,
        notification: statements.filter(isNotification).length,
      };
    };
    const perCall = {
      'first like (another member’s photo)': await statementsOf(() =>
        patch(fan.token, { likes: true }),
      ),
      'like → dislike': await statementsOf(() => patch(fan.token, { dislikes: true })),
      'take back': await statementsOf(() => patch(fan.token, { dislikes: false })),
      'like again (not news)': await statementsOf(() => patch(fan.token, { likes: true })),
      'like of one’s own photo': await statementsOf(() => patch(owner.token, { likes: true })),
      'friend request': await statementsOf(async () => {
        const response = await fetch(`${base}/api/users/friends/request`, {
          method: 'POST',
          headers: { authorization: `Bearer ${friend.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ toUserId: owner.userId }),
        });
        if (response.status >= 400) throw new Error(`request answered ${response.status}`);
        await response.arrayBuffer();
      }),
    };

    // Latency: like, dislike, take back, in turn.
    const times: number[] = [];
    const bodies = [{ likes: true }, { dislikes: true }, { dislikes: false }];
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const body of bodies) {
        const began = performance.now();
        await patch(fan.token, body);
        times.push(performance.now() - began);
      }
    }
    const latency = summary(times);

    const rows = [
      ['call', 'session lookup', 'the call itself', 'notification'],
      ...Object.entries(perCall).map(([name, count]) => [
        name,
        String(count.session),
        String(count.reaction),
        String(count.notification),
      ]),
    ];
    console.log(`\n${SETUP}: statements per call\n${table(rows)}`);
    console.log(
      `\nPATCH latency over ${times.length} calls: p50 ${latency.p50.toFixed(2)} ms, p99 ${latency.p99.toFixed(2)} ms`,
    );
    const file = writeResultEntry('likes', ['sqlite', 'postgres'], SETUP, {
      statements: perCall,
      patchLatencyMs: { calls: times.length, ...latency },
    });
    console.log(`\nwritten to ${file}`);
  } finally {
    await bench.close();
  }
}

await main();
