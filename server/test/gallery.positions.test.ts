/**
 * Every image of a gallery has a place of its own, however many uploads and reorders of one owner
 * arrive at once (docs/decisions.md "Saved order and folders").
 */
import { randomBytes } from 'node:crypto';
import { beforeEach, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { insertImage, owner as ownerRow } from '../src/features/gallery/repository.ts';
import { type GalleryDeps, reorder as reorderImages } from '../src/features/gallery/service.ts';
import { listGallery, reorder, uploadImage } from './gallery-helpers.ts';
import { type Member, forEachApp, signupMembers } from './helpers.ts';

forEachApp((t) => {
  let owner: Member;

  beforeEach(async () => {
    [owner] = await signupMembers(t.app, 1);
  });

  const insert = () => {
    const name = randomBytes(16).toString('hex');
    return insertImage(t.app.db, {
      id: randomBytes(8).toString('hex'),
      ownerId: owner.user.id,
      displayFile: `${name}.webp`,
      thumbFile: `${name}-thumb.webp`,
      width: 10,
      height: 10,
      bytes: 100,
      folder: 'All',
      createdAt: new Date().toISOString(),
    });
  };

  async function positions(): Promise<number[]> {
    const rows = await t.app.db
      .selectFrom('gallery_images')
      .select('position')
      .where('owner_id', '=', owner.user.id)
      .orderBy('position')
      .execute();
    return rows.map((row) => row.position);
  }

  /** Distinct, one after the other, as many as there are images. */
  function expectContiguous(list: readonly number[], count: number) {
    expect(list).toHaveLength(count);
    const first = list[0] ?? 0;
    expect(list).toEqual(list.map((_, index) => first + index));
  }

  it('gives 20 images inserted at once 20 distinct places, one after the other', async () => {
    await Promise.all(Array.from({ length: 20 }, insert));

    expectContiguous(await positions(), 20);
  });

  it('keeps every place distinct while reorders and uploads of one owner run at once', async () => {
    const images: GalleryImage[] = [];
    for (let i = 0; i < 6; i += 1) images.push(await uploadImage(t.app, owner));
    const ids = images.map((image) => image.id);
    const deps: GalleryDeps = {
      db: t.app.db,
      media: t.app.media,
      incomingDir: t.app.incomingDir,
      events: t.app.galleryEvents,
      notifications: t.app.notificationEvents,
      images: t.app.images,
    };
    const me = await ownerRow(t.app.db, owner.user.id);
    if (!me) throw new Error('the owner has no row');

    // Overlapping swaps, oldest image first in each: read before any of them is written, the
    // second would put an image on the place the first gave away.
    const reorders = ids
      .slice(0, -1)
      .map((id, i) => reorderImages(deps, me, { order: [id, ids[i + 1] ?? ''] }));
    const inserts = Array.from({ length: 8 }, insert);
    const uploads = Array.from({ length: 2 }, () => uploadImage(t.app, owner));
    await Promise.all([...reorders, ...inserts, ...uploads]);

    expectContiguous(await positions(), 6 + 8 + 2);
    expect(await listGallery(t.app, owner)).toHaveLength(16);
  });

  it('swaps two images whose places are next to each other', async () => {
    const [a, b] = [await uploadImage(t.app, owner), await uploadImage(t.app, owner)];

    const response = await reorder(t.app, owner, [a.id, b.id]);

    expect(response.statusCode).toBe(200);
    expect((await listGallery(t.app, owner)).map((image) => image.id)).toEqual([a.id, b.id]);
    expectContiguous(await positions(), 2);
  });

  it('refuses a second image on a place that is taken', async () => {
    await insert();
    const [taken] = await positions();

    await expect(
      t.app.db
        .insertInto('gallery_images')
        .values({
          id: 'second',
          owner_id: owner.user.id,
          display_file: 'second.webp',
          thumb_file: 'second-thumb.webp',
          width: 1,
          height: 1,
          bytes: 1,
          folder: 'All',
          caption: '',
          position: taken ?? 0,
          created_at: new Date().toISOString(),
        })
        .execute(),
    ).rejects.toThrow();
  });
});
