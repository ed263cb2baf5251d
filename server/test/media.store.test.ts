/**
 * One contract, two stores: the disk store (a temporary folder) and the S3 store (a bucket on a
 * local s3rver) must answer every call alike.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStore } from '../src/media/disk.ts';
import type { MediaListing, MediaRead, MediaStore } from '../src/media/store.ts';
import { S3Store } from '../src/media/s3.ts';
import { type LocalS3, startS3rver } from './s3-helpers.ts';

const s3: LocalS3 = await startS3rver();
const folders: string[] = [];
const stores: MediaStore[] = [];

afterAll(async () => {
  for (const store of stores) store.close();
  await s3.close();
  await Promise.all(folders.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function tempFolder(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-media-'));
  folders.push(dir);
  return dir;
}

interface Subject {
  /** A store on a fresh, empty folder or bucket. */
  make(): Promise<MediaStore>;
  /** A store whose folder or bucket does not exist. */
  missing(): Promise<MediaStore>;
}

const SUBJECTS: Record<'disk' | 's3', Subject> = {
  disk: {
    make: async () => new DiskStore(await tempFolder()),
    async missing() {
      const dir = await tempFolder();
      const store = new DiskStore(path.join(dir, 'uploads'));
      await fs.rm(path.join(dir, 'uploads'), { recursive: true });
      return store;
    },
  },
  s3: {
    // Two keys a page, so listing takes several pages.
    make: async () => s3.store(await s3.createBucket('contract'), { listPageSize: 2 }),
    missing: () => Promise.resolve(s3.store('orbit-nowhere')),
  },
};

const hex = () => randomBytes(16).toString('hex');
const galleryKeyOf = (name = hex()) => `gallery/${name}.webp`;

async function bodyOf(read: MediaRead): Promise<string> {
  if (read.status !== 'found') throw new Error(`expected an object, got ${read.status}`);
  return text(read.body);
}

async function collect(listing: AsyncIterable<MediaListing>): Promise<MediaListing[]> {
  const items: MediaListing[] = [];
  for await (const item of listing) items.push(item);
  return items.sort((a, b) => a.key.localeCompare(b.key));
}

describe.each(['disk', 's3'] as const)('the %s store', (kind) => {
  const subject = SUBJECTS[kind];
  let store: MediaStore;

  beforeAll(async () => {
    store = await subject.make();
    stores.push(store);
  });

  it('answers a stored object with its bytes, size, type, entity tag and date', async () => {
    const key = galleryKeyOf();
    const before = Date.now();
    await store.put(key, Buffer.from('picture bytes'), 'image/webp');

    const read = await store.get(key);

    expect(read.status).toBe('found');
    if (read.status !== 'found') return;
    expect(read.info.size).toBe(13);
    expect(read.info.contentType).toBe('image/webp');
    expect(read.info.etag).toMatch(/^"[^"]+"$/);
    // S3 dates have whole seconds.
    expect(read.info.lastModified.getTime()).toBeGreaterThan(before - 2_000);
    expect(await text(read.body)).toBe('picture bytes');
  });

  it('answers missing for a key never stored', async () => {
    expect(await store.get(galleryKeyOf())).toEqual({ status: 'missing' });
  });

  it('answers not modified, without a body, when If-None-Match names the entity tag', async () => {
    const key = galleryKeyOf();
    await store.put(key, Buffer.from('same'), 'image/webp');
    const info = await store.stat(key);
    if (!info) throw new Error('no object');

    const read = await store.get(key, { ifNoneMatch: info.etag });

    expect(read).toEqual({ status: 'not-modified', etag: info.etag });
  });

  it('answers the object when If-None-Match names another entity tag', async () => {
    const key = galleryKeyOf();
    await store.put(key, Buffer.from('changed'), 'image/webp');

    const read = await store.get(key, { ifNoneMatch: '"something-else"' });

    expect(await bodyOf(read)).toBe('changed');
  });

  it('answers the headers of an object without its bytes, and nothing for a missing key', async () => {
    const key = galleryKeyOf();
    await store.put(key, Buffer.from('four'), 'image/webp');
    const read = await store.get(key);
    if (read.status !== 'found') throw new Error('no object');
    read.body.resume();

    const info = await store.stat(key);

    expect(info).toEqual(read.info);
    expect(await store.stat(galleryKeyOf())).toBeUndefined();
  });

  it('replaces an object put again under the same key', async () => {
    const key = galleryKeyOf();
    await store.put(key, Buffer.from('first'), 'image/webp');

    await store.put(key, Buffer.from('second'), 'image/webp');

    expect(await bodyOf(await store.get(key))).toBe('second');
  });

  it('stores a stream larger than one upload part whole', async () => {
    const key = galleryKeyOf();
    const data = randomBytes(6 * 1024 * 1024 + 17);
    const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

    await store.put(
      key,
      Readable.from([data.subarray(0, 1000), data.subarray(1000)]),
      'image/webp',
    );

    const read = await store.get(key);
    if (read.status !== 'found') throw new Error('no object');
    const chunks: Buffer[] = [];
    for await (const chunk of read.body) chunks.push(chunk as Buffer);
    expect(read.info.size).toBe(data.length);
    expect(digest(Buffer.concat(chunks))).toBe(digest(data));
  });

  it('leaves no object behind when the stream being stored fails', async () => {
    const key = galleryKeyOf();
    const failing = new Readable({
      read() {
        this.destroy(new Error('connection lost'));
      },
    });

    await expect(store.put(key, failing, 'image/webp')).rejects.toThrow();

    expect(await store.stat(key)).toBeUndefined();
    expect((await collect(store.list('gallery/'))).map((item) => item.key)).not.toContain(key);
  });

  it('lists every object under a prefix, with size and date, and nothing outside it', async () => {
    const own = await subject.make();
    stores.push(own);
    const gallery = [
      galleryKeyOf(),
      galleryKeyOf(),
      galleryKeyOf(),
      galleryKeyOf(),
      galleryKeyOf(),
    ];
    const avatar = `avatars/${hex()}.webp`;
    for (const key of [...gallery, avatar]) await own.put(key, Buffer.from(key), 'image/webp');

    const listed = await collect(own.list('gallery/'));

    expect(listed.map((item) => item.key)).toEqual([...gallery].sort());
    for (const item of listed) {
      expect(item.size).toBe(Buffer.byteLength(item.key));
      expect(item.lastModified).toBeInstanceOf(Date);
    }
    expect((await collect(own.list('avatars/'))).map((item) => item.key)).toEqual([avatar]);
  });

  it('lists nothing under a prefix that holds no object', async () => {
    expect(await collect(store.list('avatars/none-'))).toEqual([]);
  });

  it('removes several objects at once and passes over keys that are not there', async () => {
    const keep = galleryKeyOf();
    const gone = [galleryKeyOf(), galleryKeyOf()];
    for (const key of [keep, ...gone]) await store.put(key, Buffer.from('x'), 'image/webp');

    await store.remove([...gone, galleryKeyOf()]);

    for (const key of gone) expect(await store.stat(key)).toBeUndefined();
    expect((await store.stat(keep))?.size).toBe(1);
  });

  it('passes its check when it can be written to', async () => {
    await expect(store.check()).resolves.toBeUndefined();
  });

  it('fails its check, saying what is missing, when the folder or bucket does not exist', async () => {
    const missing = await subject.missing();
    stores.push(missing);

    await expect(missing.check()).rejects.toThrow(
      kind === 'disk' ? /media folder .* does not exist/ : /bucket "orbit-nowhere" does not exist/,
    );
  });
});

describe('the disk store', () => {
  it('refuses a key that would leave its folder', async () => {
    const store = new DiskStore(await tempFolder());

    await expect(store.put('../outside.webp', Buffer.from('x'), 'image/webp')).rejects.toThrow(
      /Not a media key/,
    );
  });

  it('fails its check when its folder has become a file', async () => {
    const dir = await tempFolder();
    const store = new DiskStore(path.join(dir, 'uploads'));
    await fs.rm(path.join(dir, 'uploads'), { recursive: true });
    await fs.writeFile(path.join(dir, 'uploads'), 'not a folder');

    await expect(store.check()).rejects.toThrow(/is not a folder/);
  });

  it('leaves nothing in its folder when checked', async () => {
    const dir = await tempFolder();
    const store = new DiskStore(dir);

    await store.check();

    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('answers a directory as missing', async () => {
    const dir = await tempFolder();
    const store = new DiskStore(dir);
    await fs.mkdir(path.join(dir, 'gallery', 'inner.webp'), { recursive: true });

    expect(await store.get('gallery/inner.webp')).toEqual({ status: 'missing' });
  });
});

describe('the S3 store', () => {
  it('fails its check, saying so, when the service cannot be reached', async () => {
    const store = new S3Store({ ...s3.settings('orbit-media'), endpoint: 'http://127.0.0.1:9' });
    stores.push(store);

    await expect(store.check()).rejects.toThrow(
      /"orbit-media" at http:\/\/127\.0\.0\.1:9 cannot be reached/,
    );
  });
});
