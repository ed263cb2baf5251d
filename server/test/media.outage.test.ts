/**
 * The app on an S3 bucket that stops answering (its s3rver is stopped, then started again on the
 * same port and folder): pictures answer 503 without internals, /readyz names the store, and a
 * delete still succeeds, leaving its pictures to the sweep.
 */
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { SWEEP_GRACE_MS, sweepMedia } from '../src/media/sweep.ts';
import { PICTURE_UNAVAILABLE } from '../src/plugins/static.ts';
import { deleteImage, uploadImage } from './gallery-helpers.ts';
import { type Member, forEachDialect, signupMembers } from './helpers.ts';
import { useLocalS3, useTestAppOnS3 } from './s3-suite.ts';

const s3 = await useLocalS3();

const keyOf = (url: string) => url.replace(/^\/uploads\//, '');

/** Runs `work` while the bucket's server is down, and starts it again whatever happens. */
async function whileDown<T>(work: () => Promise<T>): Promise<T> {
  await s3.stop();
  try {
    return await work();
  } finally {
    await s3.restart();
  }
}

forEachDialect((dialect) => {
  const { t, bucket } = useTestAppOnS3(s3, dialect, 'outage');
  let member: Member;
  let image: GalleryImage;

  beforeAll(async () => {
    [member] = await signupMembers(t.app, 1);
    image = await uploadImage(t.app, member);
  });

  it('answers a picture with 503 and a short sentence when the bucket cannot be reached', async () => {
    const response = await whileDown(() =>
      t.app.inject({ method: 'GET', url: image.thumbnailUrl }),
    );

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: PICTURE_UNAVAILABLE });
    expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|bucket/i);
  });

  it('serves the picture again once the bucket answers', async () => {
    await whileDown(() => t.app.inject({ method: 'GET', url: image.thumbnailUrl }));

    const response = await t.app.inject({ method: 'GET', url: image.thumbnailUrl });

    expect(response.statusCode).toBe(200);
  });

  it('answers /readyz with 503 naming the media store while the bucket cannot be reached', async () => {
    const response = await whileDown(() => t.app.inject({ method: 'GET', url: '/readyz' }));

    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      status: 'unavailable',
      down: ['media'],
      checks: { database: 'ok', media: 'down' },
    });
  });

  it('deletes an image when its pictures cannot be removed, and the sweep removes them later', async () => {
    const doomed = await uploadImage(t.app, member);
    const keys = [keyOf(doomed.url), keyOf(doomed.thumbnailUrl)];

    const response = await whileDown(() => deleteImage(t.app, member, doomed.id));

    expect(response.statusCode).toBe(204);
    const store = s3.store(bucket());
    try {
      for (const key of keys) expect((await store.stat(key))?.size).toBeGreaterThan(0);
      await sweepMedia(
        {
          db: t.app.db,
          store,
          incomingDir: path.join(t.config.uploadsDir, '.incoming'),
        },
        Date.now() + SWEEP_GRACE_MS + 5_000,
      );
      for (const key of keys) expect(await store.stat(key)).toBeUndefined();
      expect((await store.stat(keyOf(image.url)))?.size).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});
