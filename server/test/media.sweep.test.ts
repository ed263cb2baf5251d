/**
 * sweepMedia on the disk store: objects no row names go once they are older than the grace,
 * abandoned request bodies 15 minutes after their last write, also on the app's own timer;
 * nothing a row names is ever touched.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStore } from '../src/media/disk.ts';
import { type MediaFile, keepFiles, putFiles } from '../src/media/files.ts';
import { createMedia } from '../src/media/index.ts';
import { INCOMING_GRACE_MS, SWEEP_GRACE_MS, sweepMedia } from '../src/media/sweep.ts';
import { diskPath, uploadImage } from './gallery-helpers.ts';
import { type Member, filesUnder, signupMembers, forEachApp, useTestApp } from './helpers.ts';

const HEX = (digit: string) => digit.repeat(32);

forEachApp((t) => {
  let owner: Member;

  beforeAll(async () => {
    [owner] = await signupMembers(t.app, 1);
  });

  const deps = () => ({
    db: t.app.db,
    store: new DiskStore(t.config.uploadsDir),
    incomingDir: path.join(t.config.uploadsDir, '.incoming'),
  });
  const file = (relative: string) => path.join(t.config.uploadsDir, relative);

  /** Writes a file under uploads/ and dates it `ageMs` before now. */
  async function writeAged(relative: string, ageMs: number): Promise<string> {
    const target = file(relative);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, 'stray bytes');
    const when = new Date(Date.now() - ageMs);
    await fs.utimes(target, when, when);
    return target;
  }

  const exists = (target: string) =>
    fs.access(target).then(
      () => true,
      () => false,
    );

  it('removes a gallery picture no row names once it is older than the grace', async () => {
    const stray = await writeAged(`gallery/${HEX('a')}.webp`, SWEEP_GRACE_MS + 60_000);

    await sweepMedia(deps());

    expect(await exists(stray)).toBe(false);
  });

  it('keeps a gallery picture no row names while it is younger than the grace', async () => {
    const fresh = await writeAged(`gallery/${HEX('b')}.webp`, SWEEP_GRACE_MS - 60_000);

    await sweepMedia(deps());

    expect(await exists(fresh)).toBe(true);
  });

  it('keeps the pictures of an image however old they are', async () => {
    const image = await uploadImage(t.app, owner);
    const long = new Date(Date.now() - 30 * 86_400_000);
    for (const url of [image.url, image.thumbnailUrl])
      await fs.utimes(diskPath(t.config.uploadsDir, url), long, long);

    await sweepMedia(deps(), Date.now() + 86_400_000);

    expect(await exists(diskPath(t.config.uploadsDir, image.url))).toBe(true);
    expect(await exists(diskPath(t.config.uploadsDir, image.thumbnailUrl))).toBe(true);
  });

  it('removes an avatar no member has and keeps every member’s avatar', async () => {
    const stray = await writeAged(`avatars/${HEX('c')}.webp`, SWEEP_GRACE_MS + 60_000);
    const own = diskPath(t.config.uploadsDir, owner.user.profileImage);

    await sweepMedia(deps(), Date.now() + 86_400_000);

    expect(await exists(stray)).toBe(false);
    expect(await exists(own)).toBe(true);
  });

  it('removes a half-written temporary file once it is older than the grace', async () => {
    const partial = await writeAged(
      `gallery/${HEX('d')}.webp.0a1b2c.partial`,
      SWEEP_GRACE_MS + 60_000,
    );

    await sweepMedia(deps());

    expect(await exists(partial)).toBe(false);
  });

  it('removes a request body last written 16 minutes ago and keeps a fresh one', async () => {
    const old = await writeAged('.incoming/old.upload', 16 * 60_000);
    const fresh = await writeAged('.incoming/fresh.upload', 0);

    const result = await sweepMedia(deps());

    expect(INCOMING_GRACE_MS).toBe(15 * 60_000);
    expect(result.incoming).toBe(1);
    expect(await exists(old)).toBe(false);
    expect(await exists(fresh)).toBe(true);
  });

  it('judges age by the clock it is given', async () => {
    const later = await writeAged(`gallery/${HEX('e')}.webp`, 0);

    await sweepMedia(deps(), Date.now() + SWEEP_GRACE_MS + 1_000);

    expect(await exists(later)).toBe(false);
  });

  it('answers nothing removed when every old picture is named by a row', async () => {
    await sweepMedia(deps(), Date.now() + 86_400_000);
    const before = await filesUnder(t.config.uploadsDir);

    const result = await sweepMedia(deps(), Date.now() + 86_400_000);

    expect(result).toEqual({ objects: 0, incoming: 0 });
    expect(await filesUnder(t.config.uploadsDir)).toEqual(before);
  });

  it('copes with an uploads folder that has no gallery, avatars or request bodies', async () => {
    const empty = path.join(t.config.uploadsDir, 'nowhere');

    const result = await sweepMedia({
      db: t.app.db,
      store: new DiskStore(empty),
      incomingDir: path.join(empty, '.incoming'),
    });

    expect(result).toEqual({ objects: 0, incoming: 0 });
  });
});

describe('an upload whose row was slow to arrive', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-keep-'));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const media = () => createMedia(new DiskStore(dir), undefined, { warn: () => undefined });
  const files = (): MediaFile[] => [
    { key: `gallery/${HEX('1')}.webp`, body: Buffer.from('display'), contentType: 'image/webp' },
    {
      key: `gallery/${HEX('1')}-thumb.webp`,
      body: Buffer.from('thumb'),
      contentType: 'image/webp',
    },
  ];

  it('writes its pictures again when the row took more than half the grace', async () => {
    const began = await putFiles(media(), files());
    // What a sweep would have done while the insert waited.
    await media().store.remove(files().map((file) => file.key));

    await keepFiles(media(), files(), began, began + SWEEP_GRACE_MS / 2 + 1);

    for (const file of files())
      expect((await media().store.stat(file.key))?.size).toBe(file.body.length);
  });

  it('writes nothing again after a quick row', async () => {
    const began = await putFiles(media(), files());
    await media().store.remove(files().map((file) => file.key));

    await keepFiles(media(), files(), began, began + 1_000);

    for (const file of files()) expect(await media().store.stat(file.key)).toBeUndefined();
  });
});

/** Until `check` holds, looking every 20 ms; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the app’s periodic sweep', () => {
  // 0.005 minutes: a turn every 300 ms.
  const t = useTestApp('sqlite', { MEDIA_SWEEP_INTERVAL_MINUTES: '0.005' });

  it('removes an abandoned request body written after start, and keeps a fresh one', async () => {
    await t.app.ready();
    const incoming = t.app.incomingDir;
    await fs.mkdir(incoming, { recursive: true });
    const fresh = path.join(incoming, 'fresh.upload');
    await fs.writeFile(fresh, 'arriving');
    const old = path.join(incoming, 'old.upload');
    await fs.writeFile(old, 'abandoned');
    const when = new Date(Date.now() - 16 * 60_000);
    await fs.utimes(old, when, when);

    await eventually(
      () =>
        fs.access(old).then(
          () => false,
          () => true,
        ),
      5_000,
    );
    await fs.access(fresh);
  });
});
