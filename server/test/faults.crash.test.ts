/**
 * Faults: the real server (a child process) is killed with SIGKILL while uploads, friend requests
 * and a reorder are in flight, then started again on the same data directory and database. After
 * each crash: the database is whole (SQLite's `PRAGMA integrity_check`, no row pointing at a
 * missing row or file on either database), the sweep leaves no file that no row names and no
 * temporary file, and every write that was answered with a 2xx before the kill is there, a
 * reorder in the order last saved.
 *
 * The rest of the fault suite: faults.redis.test.ts (Redis killed and started again under
 * traffic), faults.postgres.test.ts (a private PostgreSQL crashed and started again under
 * traffic), redis.outage.test.ts (each auth route with Redis down), media.crash.test.ts (a node
 * killed during an upload to S3) and, for the push relay, push-relay/test/nodes.test.ts (a relay
 * killed mid-run hands its lease over without losing or repeating a push).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { openSqlite } from '../src/db/sqlite.ts';
import { DiskStore } from '../src/media/disk.ts';
import { INCOMING_GRACE_MS, SWEEP_GRACE_MS, sweepMedia } from '../src/media/sweep.ts';
import { jpegPart } from './gallery-helpers.ts';
import { type Member, forEachDialect, multipart, signupMembers, useTestApp } from './helpers.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

interface Traffic<T> {
  /** What was answered with a 2xx before the kill. */
  acknowledged: T[];
  /** Requests sent and not answered yet. */
  inFlight(): number;
  /** Resolves once every lane has stopped (its connection cut by the kill, or nothing left). */
  done: Promise<void>;
}

/**
 * Sends `send(n)` for n = 0, 1, 2… on `lanes` lanes at once, each lane sending its next request
 * as soon as the last is answered, until `send` answers null (nothing left) or a request fails.
 */
function keepSending<T>(lanes: number, send: (n: number) => Promise<T | null>): Traffic<T> {
  const acknowledged: T[] = [];
  let next = 0;
  let inFlight = 0;
  const lane = async () => {
    for (;;) {
      inFlight += 1;
      try {
        const result = await send(next++);
        if (result === null) return;
        acknowledged.push(result);
      } catch {
        return;
      } finally {
        inFlight -= 1;
      }
    }
  };
  const done = Promise.all(Array.from({ length: lanes }, lane)).then(() => undefined);
  return { acknowledged, inFlight: () => inFlight, done };
}

async function waitFor(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Every file under `dir`, as paths relative to it. */
async function filesIn(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

forEachDialect((dialect) => {
  // In this process: the database (created and migrated) and the members; the node is a child.
  const t = useTestApp(dialect);
  let node: ServerProcess | undefined;
  let members: Member[];

  const startNode = async () => {
    node = await startServerProcess({
      DATA_DIR: t.config.dataDir,
      STATIC_DIR: path.join(t.config.dataDir, 'no-static-build'),
      AUTH_RATE_LIMIT: '1000',
      ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
    });
    return node;
  };
  /** Kills the node once `traffic` has `count` answers, with requests still in flight. */
  const killDuring = async <T>(traffic: Traffic<T>, count: number) => {
    const running = node as ServerProcess;
    await waitFor(() => traffic.acknowledged.length >= count, `${count} answers`);
    const inFlight = traffic.inFlight();
    await running.kill('SIGKILL');
    await traffic.done;
    expect(inFlight).toBeGreaterThan(0);
  };

  beforeAll(async () => {
    members = await signupMembers(t.app, 25);
    await startNode();
  });
  afterAll(async () => {
    await node?.kill('SIGKILL');
  });

  const call = async (member: Member, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${(node as ServerProcess).origin}${url}`, {
      method,
      headers: { authorization: `Bearer ${member.token}` },
      ...(body === undefined
        ? {}
        : {
            headers: {
              authorization: `Bearer ${member.token}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify(body),
          }),
    });
    return { status: response.status, body: await response.json() };
  };
  const galleryOf = async (member: Member) => {
    const { status, body } = await call(member, 'GET', '/api/gallery');
    expect(status).toBe(200);
    return (body as { images: GalleryImage[] }).images.map((image) => image.id);
  };

  /** The checks after every restart: a whole database, no stray or missing file. */
  async function expectConsistent() {
    if (dialect === 'sqlite') {
      const sqlite = openSqlite(t.config.sqlitePath);
      try {
        expect(sqlite.prepare('PRAGMA integrity_check').all([])).toEqual([
          { integrity_check: 'ok' },
        ]);
        expect(sqlite.prepare('PRAGMA foreign_key_check').all([])).toEqual([]);
      } finally {
        sqlite.close();
      }
    }
    const { db } = t.app;
    const users = new Set((await db.selectFrom('users').select('id').execute()).map((u) => u.id));
    const friendships = await db.selectFrom('friendships').selectAll().execute();
    const pointingNowhere = friendships.filter(
      (row) => !users.has(row.requester_id) || !users.has(row.addressee_id),
    );
    expect(pointingNowhere).toEqual([]);
    const images = await db.selectFrom('gallery_images').selectAll().execute();
    expect(images.filter((row) => !users.has(row.owner_id))).toEqual([]);
    const sessions = await db.selectFrom('sessions').select('user_id').execute();
    expect(sessions.filter((row) => !users.has(row.user_id))).toEqual([]);

    // The sweep as it runs once the grace periods are over: then nothing unnamed is left.
    const uploads = t.config.uploadsDir;
    const incomingDir = path.join(uploads, '.incoming');
    const later = Date.now() + Math.max(SWEEP_GRACE_MS, INCOMING_GRACE_MS) + 60_000;
    await sweepMedia({ db, store: new DiskStore(uploads), incomingDir }, later);
    const named = [
      ...images.flatMap((row) => [`gallery/${row.display_file}`, `gallery/${row.thumb_file}`]),
      ...(await db.selectFrom('users').select('profile_image').execute())
        .map((row) => row.profile_image)
        .filter(Boolean),
    ].sort();
    expect(await filesIn(uploads)).toEqual(named);
  }

  it('keeps every answered upload and leaves no stray file when killed during uploads', async () => {
    const member = members[0] as Member;
    const photo = await jpegPart(1600, 1200);
    const uploads = keepSending(4, async () => {
      const { payload, headers } = await multipart({ image: photo });
      const response = await fetch(`${(node as ServerProcess).origin}/api/gallery`, {
        method: 'POST',
        body: new Uint8Array(payload),
        headers: { ...headers, authorization: `Bearer ${member.token}` },
      });
      if (response.status !== 201) throw new Error(`upload answered ${response.status}`);
      return ((await response.json()) as { image: GalleryImage }).image.id;
    });
    await killDuring(uploads, 6);

    await startNode();
    const saved = await galleryOf(member);
    expect(saved).toEqual(expect.arrayContaining(uploads.acknowledged));
    await expectConsistent();
  });

  it('keeps every answered friend request when killed during friend requests', async () => {
    const [asker, ...others] = members as [Member, ...Member[]];
    const requests = keepSending(4, async (n) => {
      const other = others[n];
      if (!other) return null;
      const { status, body } = await call(asker, 'POST', '/api/users/friends/request', {
        toUserId: other.user.id,
      });
      if (status !== 200 || (body as { status?: unknown }).status !== 'pending')
        throw new Error(`request answered ${status} ${JSON.stringify(body)}`);
      return other;
    });
    await killDuring(requests, 8);

    await startNode();
    for (const other of requests.acknowledged) {
      const { body } = await call(
        asker,
        'GET',
        `/api/users/friends/status?userId=${other.user.id}`,
      );
      expect(body).toEqual({ status: 'pending' });
    }
    await expectConsistent();
  });

  it('keeps the order last saved when killed during a reorder', async () => {
    const member = members[0] as Member;
    const ids = await galleryOf(member);
    expect(ids.length).toBeGreaterThanOrEqual(6);
    const rotated = (n: number) => [...ids.slice(n % ids.length), ...ids.slice(0, n % ids.length)];
    // One reorder at a time, as the page sends them: the last answered is the order saved.
    const reorders = keepSending(1, async (n) => {
      const order = rotated(n + 1);
      const { status } = await call(member, 'POST', '/api/gallery/reorder', { order });
      if (status !== 200) throw new Error(`reorder answered ${status}`);
      return order;
    });
    await killDuring(reorders, 5);

    await startNode();
    const last = reorders.acknowledged.length;
    // The reorder cut off by the kill may have been saved or not; it is saved whole or not at all.
    expect([rotated(last), rotated(last + 1)]).toContainEqual(await galleryOf(member));
    await expectConsistent();
  });
});
