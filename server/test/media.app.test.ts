/**
 * The app with its pictures on disk (the default) and in an S3 bucket (S3_BUCKET, on a local
 * s3rver), on each database: uploads, avatars, deletes and failed inserts keep the store and the
 * rows in step, and /uploads/<key> serves from whichever store is configured.
 */
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import type { User } from '../../src/contracts/user.ts';
import { INTERNAL_ERROR } from '../src/plugins/errors.ts';
import { type MediaStore, createMediaStore } from '../src/media/index.ts';
import { deleteImage, jpegPart, postUpload, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  filesUnder,
  forEachDialect,
  pngImage,
  postSignup,
  signupMembers,
  uniqueUsername,
  useTestApp,
  patchProfileForm,
} from './helpers.ts';
import { useLocalS3 } from './s3-suite.ts';

const s3 = await useLocalS3();

const keyOf = (url: string) => url.replace(/^\/uploads\//, '');

forEachDialect((dialect) => {
  describe.each(['disk', 's3'] as const)('with pictures on %s', (kind) => {
    const env: Record<string, string> = {};
    beforeAll(async () => {
      if (kind === 's3') Object.assign(env, s3.env(await s3.createBucket(`app-${dialect}`)));
    });
    const t = useTestApp(dialect, env);
    let store: MediaStore;
    let member: Member;

    beforeAll(async () => {
      store = await createMediaStore(t.config);
      [member] = await signupMembers(t.app, 1);
    });
    afterAll(() => store.close());

    async function keys(prefix: string): Promise<string[]> {
      const found: string[] = [];
      for await (const item of store.list(prefix)) found.push(item.key);
      return found.sort();
    }

    async function bytesOf(key: string): Promise<Buffer> {
      const read = await store.get(key);
      if (read.status !== 'found') throw new Error(`${key}: ${read.status}`);
      return buffer(read.body);
    }

    const get = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers });

    /** Makes every insert into `table` fail until the returned function is called. */
    async function refuseInserts(table: 'gallery_images' | 'users'): Promise<() => Promise<void>> {
      const name = `refuse_${table}`;
      if (dialect === 'sqlite') {
        await sql
          .raw(
            `create trigger ${name} before insert on ${table} begin select raise(abort, 'refused'); end`,
          )
          .execute(t.app.db);
        return async () => {
          await sql.raw(`drop trigger ${name}`).execute(t.app.db);
        };
      }
      await sql
        .raw(
          `create or replace function refuse_row() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`,
        )
        .execute(t.app.db);
      await sql
        .raw(
          `create trigger ${name} before insert on ${table} for each row execute function refuse_row()`,
        )
        .execute(t.app.db);
      return async () => {
        await sql.raw(`drop trigger ${name} on ${table}`).execute(t.app.db);
      };
    }

    it('keeps both pictures of an upload in the store under the keys the API names', async () => {
      const before = await keys('gallery/');

      const image = await uploadImage(t.app, member);

      const added = (await keys('gallery/')).filter((key) => !before.includes(key));
      expect(added).toEqual([keyOf(image.url), keyOf(image.thumbnailUrl)].sort());
    });

    it('serves a picture from the store with its type, length, entity tag and a year of caching', async () => {
      const image = await uploadImage(t.app, member);

      const response = await get(image.url);

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.etag).toMatch(/^"[^"]+"$/);
      expect(response.rawPayload.equals(await bytesOf(keyOf(image.url)))).toBe(true);
      expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    });

    it('answers 304 with no body when If-None-Match names the picture’s entity tag', async () => {
      const image = await uploadImage(t.app, member);
      const first = await get(image.thumbnailUrl);

      const again = await get(image.thumbnailUrl, { 'if-none-match': String(first.headers.etag) });

      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
      expect(again.headers.etag).toBe(first.headers.etag);
      expect(again.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('answers the picture again when If-None-Match names another entity tag', async () => {
      const image = await uploadImage(t.app, member);

      const response = await get(image.url, { 'if-none-match': '"not-this-one"' });

      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.length).toBeGreaterThan(0);
    });

    it('answers HEAD with the picture’s headers and no body', async () => {
      const image = await uploadImage(t.app, member);
      const full = await get(image.url);

      const head = await t.app.inject({ method: 'HEAD', url: image.url });

      expect(head.statusCode).toBe(200);
      expect(head.rawPayload.length).toBe(0);
      expect(head.headers['content-length']).toBe(full.headers['content-length']);
      expect(head.headers['content-type']).toBe('image/webp');
      expect(head.headers.etag).toBe(full.headers.etag);
    });

    it('serves a thumbnail at most 480 px on its longer side for a large upload', async () => {
      const response = await postUpload(t.app, member, await jpegPart(1200, 900));
      const { image } = response.json<{ image: GalleryImage }>();

      const thumb = await get(image.thumbnailUrl);
      const display = await get(image.url);

      const thumbSize = await sharp(thumb.rawPayload).metadata();
      const displaySize = await sharp(display.rawPayload).metadata();
      expect(thumbSize.format).toBe('webp');
      expect(Math.max(thumbSize.width ?? 0, thumbSize.height ?? 0)).toBe(480);
      expect(displaySize.width).toBe(1200);
    });

    it('keeps the avatar given at signup in the store and serves it', async () => {
      const [newcomer] = await signupMembers(t.app, 1);
      const key = keyOf(newcomer.user.profileImage);

      expect(await keys('avatars/')).toContain(key);
      const response = await get(newcomer.user.profileImage);
      expect(response.statusCode).toBe(200);
      expect((await sharp(response.rawPayload).metadata()).width).toBe(512);
    });

    it('stores a changed avatar and removes the previous one from the store', async () => {
      const [changer] = await signupMembers(t.app, 1);
      const previous = keyOf(changer.user.profileImage);
      const response = await patchProfileForm(t.app, changer, {
        profilePic: { data: await pngImage(90, 90), filename: 'new.png', type: 'image/png' },
      });

      expect(response.statusCode).toBe(200);
      const current = keyOf(response.json<{ user: User }>().user.profileImage);
      const avatars = await keys('avatars/');
      expect(current).not.toBe(previous);
      expect(avatars).toContain(current);
      expect(avatars).not.toContain(previous);
    });

    it('removes both pictures from the store when their image is deleted', async () => {
      const image = await uploadImage(t.app, member);

      const response = await deleteImage(t.app, member, image.id);

      expect(response.statusCode).toBe(204);
      const gallery = await keys('gallery/');
      expect(gallery).not.toContain(keyOf(image.url));
      expect(gallery).not.toContain(keyOf(image.thumbnailUrl));
    });

    it('removes the pictures again when the image row cannot be inserted', async () => {
      const before = await keys('gallery/');
      const allow = await refuseInserts('gallery_images');

      let status: number;
      let body: unknown;
      try {
        const response = await postUpload(t.app, member, await jpegPart());
        status = response.statusCode;
        body = response.json();
      } finally {
        await allow();
      }

      expect(status).toBe(500);
      expect(body).toEqual({ error: INTERNAL_ERROR });
      expect(await keys('gallery/')).toEqual(before);
    });

    it('removes the avatar again when the member row cannot be inserted', async () => {
      const before = await keys('avatars/');
      const allow = await refuseInserts('users');

      let status: number;
      try {
        status = (await postSignup(t.app, { username: uniqueUsername('r') })).statusCode;
      } finally {
        await allow();
      }

      expect(status).toBe(500);
      expect(await keys('avatars/')).toEqual(before);
    });

    it.each([
      ['a dotfile', '/uploads/.check-abc'],
      ['a half-written file', `/uploads/gallery/${'a'.repeat(32)}.webp.0a1b2c.partial`],
      ['a request body being received', '/uploads/.incoming/abc.upload'],
      ['a path leaving the folder', '/uploads/gallery/../../orbit.db'],
      ['an encoded path leaving the folder', '/uploads/gallery/..%2F..%2Forbit.db'],
      ['a folder the app does not use', `/uploads/other/${'a'.repeat(32)}.webp`],
      ['a name that is not 32 hex digits', '/uploads/gallery/photo.webp'],
      ['another extension', `/uploads/avatars/${'a'.repeat(32)}.png`],
      ['the folder itself', '/uploads/gallery/'],
    ])('answers 404 to %s', async (_what, url) => {
      const response = await get(url);

      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: expect.stringMatching(/^Not found/) as string });
    });

    it('answers 404 to a well-formed key that holds no picture', async () => {
      const response = await get(`/uploads/gallery/${'0'.repeat(32)}-thumb.webp`);

      expect(response.statusCode).toBe(404);
    });

    it('answers a version query on an avatar with the avatar', async () => {
      const response = await get(`${member.user.profileImage}?v=3`);

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
    });

    if (kind === 's3') {
      it('writes no picture to the data directory', async () => {
        await uploadImage(t.app, member);

        const files = await filesUnder(t.config.uploadsDir);

        expect(files.filter((file) => !file.startsWith('.incoming/'))).toEqual([]);
      });
    }
  });
});
