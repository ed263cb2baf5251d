/**
 * Deleting an image when its pictures cannot be removed (docs/decisions.md "One media store"):
 * the delete stands and is announced, the removal is tried again, and what is left goes to the
 * sweep. The store is the app's own disk store, whose removals fail a given number of times.
 */
import fs from 'node:fs/promises';
import type { Socket } from 'socket.io-client';
import { expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { DISCARD_TRIES } from '../src/media/index.ts';
import { SWEEP_GRACE_MS, sweepMedia } from '../src/media/sweep.ts';
import { deleteImage, diskPath, listGallery, uploadImage } from './gallery-helpers.ts';
import { forEachDialect } from './helpers.ts';
import { useLiveOwnerAndWatcher } from './live-app.ts';

forEachDialect((dialect) => {
  const { t, pair, connectAs } = useLiveOwnerAndWatcher(dialect);

  /**
   * Makes the next `times` removals of the app's store fail as a disk fault would; answers how
   * many removals were asked for, and puts the store back.
   */
  function failRemovals(times: number) {
    const store = t.app.media.store;
    const real = store.remove.bind(store);
    let calls = 0;
    store.remove = (keys) => {
      calls += 1;
      if (calls <= times)
        return Promise.reject(Object.assign(new Error('EIO: i/o error, unlink'), { code: 'EIO' }));
      return real(keys);
    };
    return {
      calls: () => calls,
      restore: () => {
        store.remove = real;
      },
    };
  }

  /** What the app logs as warnings while `work` runs. */
  async function warningsDuring<T>(work: () => Promise<T>) {
    const warnings: { details: Record<string, unknown>; message: string }[] = [];
    const log = t.app.log;
    const original = log.warn.bind(log);
    log.warn = ((details: Record<string, unknown>, message: string) => {
      warnings.push({ details, message });
    }) as typeof log.warn;
    try {
      return { result: await work(), warnings };
    } finally {
      log.warn = original;
    }
  }

  const files = (image: GalleryImage) =>
    [image.url, image.thumbnailUrl].map((address) => diskPath(t.config.uploadsDir, address));
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );
  const keysOf = (image: GalleryImage) =>
    [image.url, image.thumbnailUrl].map((address) => address.replace(/^\/uploads\//, ''));

  /** A watcher of the owner's gallery; `next` is its next delete event. */
  async function watching(): Promise<{ next: Promise<{ id: string; ownerId: string }> }> {
    const socket: Socket = await connectAs(pair.watcher);
    await socket.timeout(5_000).emitWithAck('gallery:join', { ownerId: pair.owner.user.id });
    const next = new Promise<{ id: string; ownerId: string }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('no gallery:image:deleted within 5 s')),
        5_000,
      );
      socket.once('gallery:image:deleted', (payload: { id: string; ownerId: string }) => {
        clearTimeout(timer);
        resolve(payload);
      });
    });
    return { next };
  }

  it('removes both pictures when their removal fails twice and then works', async () => {
    const image = await uploadImage(t.app, pair.owner);
    const faults = failRemovals(DISCARD_TRIES - 1);
    try {
      const { result: response, warnings } = await warningsDuring(() =>
        deleteImage(t.app, pair.owner, image.id),
      );

      expect(response.statusCode).toBe(204);
      expect(faults.calls()).toBe(DISCARD_TRIES);
      for (const file of files(image)) expect(await exists(file)).toBe(false);
      expect(warnings).toEqual([]);
    } finally {
      faults.restore();
    }
  });

  it('deletes and announces an image whose pictures cannot be removed; the sweep removes them', async () => {
    const kept = await uploadImage(t.app, pair.owner);
    const image = await uploadImage(t.app, pair.owner);
    const deleted = await watching();
    const faults = failRemovals(Number.POSITIVE_INFINITY);
    let warnings: { details: Record<string, unknown>; message: string }[];
    try {
      const outcome = await warningsDuring(() => deleteImage(t.app, pair.owner, image.id));
      warnings = outcome.warnings;

      expect(outcome.result.statusCode).toBe(204);
      expect(faults.calls()).toBe(DISCARD_TRIES);
    } finally {
      faults.restore();
    }

    expect(await deleted.next).toEqual({ id: image.id, ownerId: pair.owner.user.id });
    expect((await listGallery(t.app, pair.owner)).map((one) => one.id)).toEqual([kept.id]);
    expect((await deleteImage(t.app, pair.owner, image.id)).statusCode).toBe(404);
    expect(warnings.map(({ details, message }) => [message, details.keys, details.tries])).toEqual([
      ['could not remove pictures; the sweep will', keysOf(image), DISCARD_TRIES],
    ]);
    for (const file of files(image)) expect(await exists(file)).toBe(true);

    const removed = await sweepMedia(
      { db: t.app.db, store: t.app.media.store, incomingDir: t.app.incomingDir },
      Date.now() + SWEEP_GRACE_MS + 5_000,
    );

    expect(removed.objects).toBe(2);
    for (const file of files(image)) expect(await exists(file)).toBe(false);
    for (const file of files(kept)) expect(await exists(file)).toBe(true);
  });
});
