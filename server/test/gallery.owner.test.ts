/** Only the owner uploads into, captions, moves, deletes and reorders a gallery (docs/decisions.md "Only the owner edits a gallery"). */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import {
  deleteImage,
  diskPath,
  jpegPart,
  listGallery,
  patchImage,
  postUpload,
  reorder,
  uploadImage,
} from './gallery-helpers.ts';
import { type Member, forEachApp, signupPair } from './helpers.ts';

const NOT_FOUND = { error: 'No such image in your gallery.' };

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

forEachApp((t) => {
  let owner: Member;
  let other: Member;

  beforeAll(async () => {
    [owner, other] = await signupPair(t.app);
  });

  it('puts an upload into one’s own gallery whatever accountId, userId or username the form claims', async () => {
    const response = await postUpload(t.app, other, await jpegPart(), {
      accountId: owner.user.id,
      userId: owner.user.id,
      username: owner.username,
    });

    expect(response.statusCode).toBe(201);
    const { image } = response.json<{ image: GalleryImage }>();
    expect(image.owner.id).toBe(other.user.id);
    expect((await listGallery(t.app, owner)).map((item) => item.id)).not.toContain(image.id);
    expect((await listGallery(t.app, other)).map((item) => item.id)).toContain(image.id);
  });

  it('answers 404 to another member’s caption or folder change and changes nothing', async () => {
    const image = await uploadImage(t.app, owner, { folder: 'Trips' });

    const caption = await patchImage(t.app, other, image.id, { caption: 'mine now' });
    const folder = await patchImage(t.app, other, image.id, { folder: 'Stolen' });

    expect([caption.statusCode, folder.statusCode]).toEqual([404, 404]);
    expect(caption.json()).toEqual(NOT_FOUND);
    const stored = (await listGallery(t.app, owner)).find((item) => item.id === image.id);
    expect(stored).toMatchObject({ caption: '', folder: 'Trips' });
  });

  it('answers 404 to another member’s delete by id, by file name and by /uploads path, keeping the files', async () => {
    const image = await uploadImage(t.app, owner);

    for (const ref of [image.id, path.basename(image.url), image.url]) {
      const response = await deleteImage(t.app, other, ref);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }

    expect((await listGallery(t.app, owner)).map((item) => item.id)).toContain(image.id);
    expect(await exists(diskPath(t.config.uploadsDir, image.url))).toBe(true);
    expect(await exists(diskPath(t.config.uploadsDir, image.thumbnailUrl))).toBe(true);
  });

  it('answers 404 to a reorder naming another member’s image and keeps both orders', async () => {
    const mine = await uploadImage(t.app, other);
    const theirs = await uploadImage(t.app, owner);
    const ownerOrder = (await listGallery(t.app, owner)).map((item) => item.id);
    const otherOrder = (await listGallery(t.app, other)).map((item) => item.id);

    const response = await reorder(t.app, other, [theirs.id, mine.id]);

    expect(response.statusCode).toBe(404);
    expect((await listGallery(t.app, owner)).map((item) => item.id)).toEqual(ownerOrder);
    expect((await listGallery(t.app, other)).map((item) => item.id)).toEqual(otherOrder);
  });

  it('lets the owner change the caption and the folder', async () => {
    const image = await uploadImage(t.app, owner);

    const caption = await patchImage(t.app, owner, image.id, { caption: '  Sunset  ' });
    const folder = await patchImage(t.app, owner, image.id, { folder: 'Beach' });

    expect(caption.statusCode).toBe(200);
    expect(caption.json<{ image: GalleryImage }>().image.caption).toBe('Sunset');
    expect(folder.statusCode).toBe(200);
    expect(folder.json<{ image: GalleryImage }>().image).toMatchObject({
      caption: 'Sunset',
      folder: 'Beach',
    });
  });

  it.each([
    ['its id', (image: GalleryImage) => image.id],
    ['its file name', (image: GalleryImage) => path.basename(image.url)],
    ['its /uploads path', (image: GalleryImage) => image.url],
    ['its thumbnail path', (image: GalleryImage) => image.thumbnailUrl],
  ])(
    'lets the owner delete an image by %s, removing both files from disk',
    async (_name, refOf) => {
      const image = await uploadImage(t.app, owner);

      const response = await deleteImage(t.app, owner, refOf(image));

      expect(response.statusCode).toBe(204);
      expect((await listGallery(t.app, owner)).map((item) => item.id)).not.toContain(image.id);
      expect(await exists(diskPath(t.config.uploadsDir, image.url))).toBe(false);
      expect(await exists(diskPath(t.config.uploadsDir, image.thumbnailUrl))).toBe(false);
      const served = await t.app.inject({ method: 'GET', url: image.url });
      expect(served.statusCode).toBe(404);
    },
  );

  it('lets the owner reorder their own images', async () => {
    const first = await uploadImage(t.app, owner);
    const second = await uploadImage(t.app, owner);

    const response = await reorder(t.app, owner, [first.id, second.id]);

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true });
    const order = (await listGallery(t.app, owner)).map((item) => item.id);
    expect(order.indexOf(first.id)).toBeLessThan(order.indexOf(second.id));
  });

  it('answers 404 to any call on an image that does not exist', async () => {
    const responses = await Promise.all([
      patchImage(t.app, owner, 'no-such-image', { caption: 'x' }),
      patchImage(t.app, owner, 'no-such-image', { likes: true }),
      deleteImage(t.app, owner, 'no-such-image'),
      reorder(t.app, owner, ['no-such-image']),
    ]);

    expect(responses.map((response) => response.statusCode)).toEqual([404, 404, 404, 404]);
  });

  it('refuses gallery calls without a session with 401', async () => {
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/gallery' }),
      t.app.inject({ method: 'DELETE', url: '/api/gallery/anything' }),
    ]);

    expect(responses.map((response) => response.statusCode)).toEqual([401, 401]);
  });
});
