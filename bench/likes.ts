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
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { LogEvent } from 'kysely';
import sharp from 'sharp';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { createDatabase } from '../server/src/db/index.ts';
import { createFreshDatabase } from '../server/test/postgres.ts';
import { signupBenchMember, summary, table, writeResultEntry } from './common.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
const PG_URL = process.env.BENCH_DATABASE_URL;
const SETUP = PG_URL ? 'postgres' : 'sqlite';

let current: string[] | undefined;
const onQuery = (event: LogEvent) => current?.push(event.query.sql);

async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const statements: string[] = [];
  current = statements;
  try {
    return { result: await work(), statements };
  } finally {
    current = undefined;
  }
}

const isSession = (sql: string) => /from "sessions"/i.test(sql);
const isNotification = (sql: string) => sql.includes('"notifications"');

async function main() {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-bench-likes-'));
  const database = PG_URL ? await createFreshDatabase(PG_URL, 'orbit_bench_likes') : undefined;
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-build'),
    AUTH_RATE_LIMIT: '100000',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const given = createDatabase({ ...config, log: onQuery });
  const app = await buildApp(config, { db: given });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
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
      const { statements } = await counted(work);
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
    await app.close();
    await given.db.destroy();
    await database?.drop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
