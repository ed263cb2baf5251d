/**
 * A node killed during an upload to S3 leaves pictures no row names; the sweep removes them, and
 * never the pictures of an upload still waiting for its row. A real server runs as a child
 * process; the test holds the database's write lock (BEGIN EXCLUSIVE on the SQLite file, LOCK
 * TABLE on PostgreSQL) so the upload stops between "pictures stored" and "row inserted".
 */
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { openSqlite } from '../src/db/sqlite.ts';
import { SWEEP_GRACE_MS, sweepMedia } from '../src/media/sweep.ts';
import type { S3Store } from '../src/media/s3.ts';
import { jpegPart } from './gallery-helpers.ts';
import {
  type Member,
  type TestDialect,
  forEachDialect,
  multipart,
  signupMembers,
} from './helpers.ts';
import { useLocalS3, useTestAppOnS3 } from './s3-suite.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const s3 = await useLocalS3();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function keysUnder(store: S3Store, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of store.list(prefix)) keys.push(item.key);
  return keys.sort();
}

/** Polls until `prefix` holds `count` objects; fails after 20 s. */
async function waitForObjects(store: S3Store, prefix: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const keys = await keysUnder(store, prefix);
    if (keys.length >= count) return keys;
    if (Date.now() > deadline)
      throw new Error(`${prefix} holds ${keys.length} objects, not ${count}`);
    await sleep(25);
  }
}

interface GalleryLock {
  /** Resolves once no other session waits for the lock (PostgreSQL; SQLite has no such sessions). */
  nobodyWaiting(): Promise<void>;
  /** Ends the lock; may be called more than once. */
  release(): Promise<void>;
}

/** Holds the write lock on gallery_images from another connection. */
async function lockGallery(
  dialect: TestDialect,
  config: { sqlitePath: string; databaseUrl: string | undefined },
): Promise<GalleryLock> {
  let release: () => Promise<void>;
  let nobodyWaiting = () => Promise.resolve();
  if (dialect === 'sqlite') {
    const db = openSqlite(config.sqlitePath);
    db.exec('BEGIN EXCLUSIVE');
    release = () => {
      db.exec('ROLLBACK');
      db.close();
      return Promise.resolve();
    };
  } else {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    await client.query('BEGIN');
    await client.query('LOCK TABLE gallery_images IN EXCLUSIVE MODE');
    release = async () => {
      await client.query('ROLLBACK');
      await client.end();
    };
    nobodyWaiting = async () => {
      const deadline = Date.now() + 10_000;
      for (;;) {
        const { rows } = await client.query<{ waiting: string }>(
          `select count(*) as waiting from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (Number(rows[0]?.waiting) === 0) return;
        if (Date.now() > deadline) throw new Error('a session still waits for the lock');
        await sleep(25);
      }
    };
  }
  let released: Promise<void> | undefined;
  return { nobodyWaiting, release: () => (released ??= release()) };
}

/**
 * PostgreSQL runs a dead client's statement to the end unless it checks the connection while
 * the statement waits; with this setting it notices the killed node and rolls its insert back,
 * as SQLite's insert dies with the process.
 */
function checkingClients(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('options', '-c client_connection_check_interval=50');
  return url.toString();
}

forEachDialect((dialect) => {
  // In this process: the database (created and migrated), a member, the sweep's database handle.
  const { t, bucket } = useTestAppOnS3(s3, dialect, 'crash');
  let store: S3Store;
  let member: Member;
  let node: ServerProcess;

  beforeAll(async () => {
    store = s3.store(bucket());
    [member] = await signupMembers(t.app, 1);
    node = await startServerProcess({
      ...s3.env(bucket()),
      DATA_DIR: t.config.dataDir,
      ...(t.config.databaseUrl ? { DATABASE_URL: checkingClients(t.config.databaseUrl) } : {}),
    });
  });
  afterAll(async () => {
    await node.kill('SIGKILL');
    store.close();
  });

  const sweepLater = (ms: number) =>
    sweepMedia(
      { db: t.app.db, store, incomingDir: path.join(t.config.uploadsDir, '.incoming') },
      Date.now() + ms,
    );

  async function sendUpload(): Promise<Response> {
    const { payload, headers } = await multipart({ image: await jpegPart() });
    return fetch(`${node.origin}/api/gallery`, {
      method: 'POST',
      body: new Uint8Array(payload),
      headers: { ...headers, authorization: `Bearer ${member.token}` },
    });
  }

  const galleryRows = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('gallery_images')
          .select((eb) => eb.fn.countAll<number>().as('count'))
          .executeTakeFirstOrThrow()
      ).count,
    );

  it('keeps the pictures of an upload waiting for its row, which then shows them', async () => {
    const lock = await lockGallery(dialect, t.config);
    let response: Response;
    try {
      const pending = sendUpload();
      await waitForObjects(store, 'gallery/', 2);

      // A sweep while the row waits: the pictures are younger than the grace.
      await sweepLater(0);
      expect(await keysUnder(store, 'gallery/')).toHaveLength(2);
      await lock.release();
      response = await pending;
    } finally {
      await lock.release();
    }

    expect(response.status).toBe(201);
    const { image } = (await response.json()) as { image: GalleryImage };
    await sweepLater(SWEEP_GRACE_MS + 5_000);
    expect(await keysUnder(store, 'gallery/')).toEqual(
      [image.url, image.thumbnailUrl].map((url) => url.replace(/^\/uploads\//, '')).sort(),
    );
  });

  it('leaves no unnamed picture after the sweep when the node is killed before the row', async () => {
    const before = await keysUnder(store, 'gallery/');
    const rows = await galleryRows();
    const lock = await lockGallery(dialect, t.config);
    let orphans: string[];
    try {
      sendUpload().catch(() => undefined);
      orphans = (await waitForObjects(store, 'gallery/', before.length + 2)).filter(
        (key) => !before.includes(key),
      );
      await node.kill('SIGKILL');
      await lock.nobodyWaiting();
    } finally {
      await lock.release();
    }
    // The crash left two pictures and no row.
    expect(orphans).toHaveLength(2);
    expect(await galleryRows()).toBe(rows);

    await sweepLater(SWEEP_GRACE_MS + 5_000);

    expect(await keysUnder(store, 'gallery/')).toEqual(before);
    const avatars = await keysUnder(store, 'avatars/');
    const named = await t.app.db.selectFrom('users').select('profile_image').execute();
    expect(avatars).toEqual(named.map((row) => row.profile_image).sort());
  });
});
