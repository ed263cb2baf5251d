/** Gallery order and folders: newest first, saved reorders, folder lists and filters, whose gallery. */
import { beforeEach, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { listGallery, reorder, uploadImage } from './gallery-helpers.ts';
import { type Member, asBearer, forEachApp, signupPair } from './helpers.ts';

const ids = (images: readonly GalleryImage[]) => images.map((image) => image.id);

forEachApp((t) => {
  let owner: Member;
  let viewer: Member;

  beforeEach(async () => {
    [owner, viewer] = await signupPair(t.app);
  });

  /** Uploads `count` images one after the other; answers them oldest first. */
  async function uploads(count: number, folder?: string): Promise<GalleryImage[]> {
    const images: GalleryImage[] = [];
    for (let i = 0; i < count; i += 1)
      images.push(await uploadImage(t.app, owner, folder ? { folder } : {}));
    return images;
  }

  it('lists a gallery newest first', async () => {
    const [a, b, c] = (await uploads(3)) as [GalleryImage, GalleryImage, GalleryImage];

    expect(ids(await listGallery(t.app, owner))).toEqual([c.id, b.id, a.id]);
  });

  it('keeps a saved reorder', async () => {
    const [a, b, c] = (await uploads(3)) as [GalleryImage, GalleryImage, GalleryImage];

    const response = await reorder(t.app, owner, [a.id, c.id, b.id]);

    expect(response.statusCode).toBe(200);
    expect(ids(await listGallery(t.app, owner))).toEqual([a.id, c.id, b.id]);
    expect(ids(await listGallery(t.app, viewer, { userId: owner.user.id }))).toEqual([
      a.id,
      c.id,
      b.id,
    ]);
  });

  it('leaves the other images in place when a subset is reordered', async () => {
    const [a, b, c, d] = (await uploads(4)) as [
      GalleryImage,
      GalleryImage,
      GalleryImage,
      GalleryImage,
    ];
    // Shown as d, c, b, a: swapping c and a keeps d and b where they are.

    await reorder(t.app, owner, [a.id, c.id]);

    expect(ids(await listGallery(t.app, owner))).toEqual([d.id, a.id, b.id, c.id]);
  });

  it('puts a new upload first after a reorder', async () => {
    const [a, b] = (await uploads(2)) as [GalleryImage, GalleryImage];
    await reorder(t.app, owner, [a.id, b.id]);

    const fresh = await uploadImage(t.app, owner);

    expect(ids(await listGallery(t.app, owner))).toEqual([fresh.id, a.id, b.id]);
  });

  it('refuses a reorder naming an image twice with 400 and keeps the order', async () => {
    const [a, b] = (await uploads(2)) as [GalleryImage, GalleryImage];

    const response = await reorder(t.app, owner, [a.id, a.id, b.id]);

    expect(response.statusCode).toBe(400);
    expect(ids(await listGallery(t.app, owner))).toEqual([b.id, a.id]);
  });

  it('lists the owner’s distinct folder names', async () => {
    await uploads(2, 'Trips');
    await uploads(1, 'Pets');
    await uploads(1);

    const response = await t.app.inject({
      method: 'GET',
      url: '/api/gallery/folders',
      query: { userId: owner.user.id },
      headers: asBearer(viewer),
    });

    expect(response.statusCode).toBe(200);
    expect(response.json<{ folders: string[] }>().folders.sort()).toEqual(['All', 'Pets', 'Trips']);
  });

  it('filters the list by ?folder=', async () => {
    const [trip1, trip2] = (await uploads(2, 'Trips')) as [GalleryImage, GalleryImage];
    await uploads(1, 'Pets');

    expect(ids(await listGallery(t.app, owner, { folder: 'Trips' }))).toEqual([trip2.id, trip1.id]);
    expect(await listGallery(t.app, owner, { folder: 'Nowhere' })).toEqual([]);
    expect(await listGallery(t.app, owner)).toHaveLength(3);
  });

  it.each([
    ['userId', (m: Member) => m.user.id],
    ['username', (m: Member) => m.username],
  ] as const)('shows another member’s gallery named by %s', async (field, value) => {
    const [a, b] = (await uploads(2)) as [GalleryImage, GalleryImage];
    await uploadImage(t.app, viewer);

    const images = await listGallery(t.app, viewer, { [field]: value(owner) });

    expect(ids(images)).toEqual([b.id, a.id]);
    expect(images.every((image) => image.owner.id === owner.user.id)).toBe(true);
  });

  it('names the owner by userId or username only: an accountId query is not read as the owner', async () => {
    await uploads(1);
    const mine = await uploadImage(t.app, viewer);

    const images = await listGallery(t.app, viewer, { accountId: owner.user.id });

    expect(ids(images)).toEqual([mine.id]);
  });

  it('shows one’s own gallery when no member is named', async () => {
    await uploads(1);
    const mine = await uploadImage(t.app, viewer);

    expect(ids(await listGallery(t.app, viewer))).toEqual([mine.id]);
  });

  it('answers 404 for a gallery of a member that does not exist', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/gallery',
      query: { username: 'nobody_here_at_all' },
      headers: asBearer(viewer),
    });

    expect(response.statusCode).toBe(404);
  });
});
