/**
 * A download as it travels (docs/decisions.md "Leaving: delete and export"): over a real socket, a
 * picture that cannot be read breaks it rather than ending it early as if complete, and a client
 * that goes away stops the reading of pictures.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import { beforeAll, expect, it, vi } from 'vitest';
import type { MediaRead } from '../src/media/index.ts';
import { noisyImage } from './gallery-helpers.ts';
import { type Member, forEachDialect, signupUser } from './helpers.ts';
import { listen } from './sockets.ts';
import { unzip } from './unzip.ts';
import { ERROR, useLoggedApp } from './uploads-helpers.ts';

forEachDialect((dialect) => {
  const t = useLoggedApp(dialect, { LOG_LEVEL: 'info' });
  let url = '';
  let picture: Buffer;

  beforeAll(async () => {
    url = await listen(t.app);
    // About 100 kB: a few of them fill a socket's buffers.
    picture = await noisyImage('webp');
  });

  /** `count` photos whose pictures are really in the store, in gallery order; answers their keys. */
  async function storedPhotos(member: Member, count: number): Promise<string[]> {
    const keys: string[] = [];
    for (let position = 0; position < count; position += 1) {
      const name = randomBytes(16).toString('hex');
      await t.app.media.store.put(`gallery/${name}.webp`, picture, 'image/webp');
      await t.app.db
        .insertInto('gallery_images')
        .values({
          id: randomUUID(),
          owner_id: member.user.id,
          display_file: `${name}.webp`,
          thumb_file: `${name}-thumb.webp`,
          width: 320,
          height: 320,
          bytes: picture.length,
          folder: 'All',
          caption: '',
          position,
          created_at: new Date().toISOString(),
        })
        .execute();
      keys.push(`gallery/${name}.webp`);
    }
    return keys;
  }

  /** Replaces the store's reads while `work` runs; `read` gets the real one. */
  async function withReads<T>(
    read: (key: string, real: (key: string) => Promise<MediaRead>) => Promise<MediaRead>,
    work: () => Promise<T>,
  ): Promise<T> {
    const store = t.app.media.store;
    const real = store.get.bind(store);
    store.get = (key) => read(key, (one) => real(one));
    try {
      return await work();
    } finally {
      store.get = real;
    }
  }

  /** Everything the download sends until it ends or breaks, and whether it broke. */
  async function fetchDownload(member: Member) {
    const response = await fetch(`${url}/api/auth/export`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    const chunks: Buffer[] = [];
    let broke = false;
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        chunks.push(Buffer.from(chunk));
    } catch {
      broke = true;
    }
    return { status: response.status, body: Buffer.concat(chunks), broke };
  }

  const failures = (member: Member) =>
    t
      .logs()
      .filter(
        (entry) =>
          entry.level === ERROR &&
          entry.msg === 'a download of member data failed; the member got a broken file' &&
          entry.userId === member.user.id,
      );

  it('is a complete archive over a real socket when nothing fails', async () => {
    const member = await signupUser(t.app);
    await storedPhotos(member, 3);

    const result = await fetchDownload(member);

    expect(result).toMatchObject({ status: 200, broke: false });
    expect(unzip(result.body).map((entry) => entry.name)).toContain('photos/0003.webp');
  });

  it('breaks when a picture fails halfway through, logs why, and gives the turn back', async () => {
    const member = await signupUser(t.app);
    const keys = await storedPhotos(member, 5);

    const result = await withReads(
      async (key, real) => {
        if (key !== keys[2]) return real(key);
        const found = await real(key);
        if (found.status !== 'found') return found;
        found.body.destroy();
        // Half the picture, then the disk fails.
        const broken = new Readable({ read() {} });
        broken.push(picture.subarray(0, 40_000));
        setTimeout(
          () => broken.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })),
          20,
        );
        return { ...found, body: broken };
      },
      () => fetchDownload(member),
    );

    expect(result.status).toBe(200);
    expect(result.broke).toBe(true);
    expect(() => unzip(result.body)).toThrow();
    await vi.waitFor(() => expect(failures(member)).toHaveLength(1));
    expect(failures(member)[0]?.err).toMatchObject({ message: 'EIO: i/o error, read' });
    await vi.waitFor(async () => expect((await fetchDownload(member)).status).toBe(200));
  });

  it('breaks when the store cannot open a picture', async () => {
    const member = await signupUser(t.app);
    const keys = await storedPhotos(member, 3);

    const result = await withReads(
      (key, real) =>
        key === keys[1] ? Promise.reject(new Error('the bucket is unreachable')) : real(key),
      () => fetchDownload(member),
    );

    expect(result.broke).toBe(true);
    expect(() => unzip(result.body)).toThrow();
    await vi.waitFor(() => expect(failures(member)).toHaveLength(1));
  });

  it('leaves out a photo whose picture the store does not have, and says so in photos.json', async () => {
    const member = await signupUser(t.app);
    const keys = await storedPhotos(member, 3);
    await t.app.media.store.remove([keys[1] as string]);

    const result = await fetchDownload(member);

    const entries = unzip(result.body);
    expect(entries.map((entry) => entry.name).filter((name) => name.startsWith('photos/'))).toEqual(
      ['photos/0001.webp', 'photos/0003.webp'],
    );
    const index = JSON.parse(
      entries.find((entry) => entry.name === 'photos.json')?.data.toString() ?? '{}',
    ) as { photos: { file: string | null }[] };
    expect(index.photos.map((photo) => photo.file)).toEqual([
      'photos/0001.webp',
      null,
      'photos/0003.webp',
    ]);
  });

  it('stops reading pictures when the client goes away, and the turn stays taken', async () => {
    const member = await signupUser(t.app);
    const count = 150;
    await storedPhotos(member, count);
    const opened: Readable[] = [];

    await withReads(
      async (key, real) => {
        const read = await real(key);
        if (read.status === 'found') opened.push(read.body);
        return read;
      },
      async () => {
        await new Promise<void>((resolve, reject) => {
          const request = http.get(
            `${url}/api/auth/export`,
            { headers: { authorization: `Bearer ${member.token}` } },
            (response) => {
              // Goes away a megabyte in: some pictures are sent, most are not.
              let received = 0;
              response.on('data', (chunk: Buffer) => {
                received += chunk.length;
                if (received < 1_000_000 || request.destroyed) return;
                request.destroy();
                resolve();
              });
            },
          );
          request.on('error', (error) => {
            if (!request.destroyed) reject(error);
          });
        });
        await vi.waitFor(() =>
          expect(
            t
              .logs()
              .some(
                (entry) =>
                  entry.msg === 'a download of member data was stopped by the client' &&
                  entry.userId === member.user.id,
              ),
          ).toBe(true),
        );
      },
    );

    // The avatar and the pictures opened before the client left: some, far from all.
    expect(opened.length).toBeGreaterThan(5);
    expect(opened.length).toBeLessThan(count / 2);
    await vi.waitFor(() => expect(opened.every((body) => body.destroyed)).toBe(true));
    const opens = opened.length;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(opened).toHaveLength(opens);
    expect(failures(member)).toEqual([]);
    expect((await fetchDownload(member)).status).toBe(429);
  });
});
