/**
 * A gallery of 40,000 images read in pages (docs/product.md "Gallery"): keyset pages in saved
 * order with no image lost or repeated, the folder filter, the counts, refused limits and cursors,
 * and single-image moves across page boundaries. The rows go straight into the table in one
 * transaction: listing reads no picture files.
 */
import { beforeAll, expect, it } from 'vitest';
import {
  GALLERY_CURSOR_INVALID,
  GALLERY_LIMIT_INVALID,
  GALLERY_MOVE_INVALID,
  GALLERY_PAGE_DEFAULT,
  GALLERY_PAGE_MAX,
  type GalleryFoldersResponse,
  type GalleryListResponse,
} from '../../src/contracts/gallery.ts';
import { type Member, asBearer, forEachApp, signupPair } from './helpers.ts';

const IMAGES = 40_000;
/** Every fourth image is in `Trips`, the rest in `All`. */
const inTrips = (index: number) => index % 4 === 0;
/** Images with a like from the viewer: enough that a page's reactions are read for every image. */
const liked = (index: number) => index % 3 === 0;

forEachApp((t) => {
  let owner: Member;
  let viewer: Member;
  /** The owner's image ids in saved order, kept in step with the moves below. */
  let order: string[] = [];

  beforeAll(async () => {
    [owner, viewer] = await signupPair(t.app);
    const ownerId = owner.user.id;
    const viewerId = viewer.user.id;
    const created = Date.parse('2024-01-01T00:00:00Z');
    // Uploaded oldest first, each taking a place before the others: image i sits at -i.
    const rows = Array.from({ length: IMAGES }, (_, i) => ({
      id: `img-${String(i).padStart(5, '0')}`,
      owner_id: ownerId,
      display_file: `d-${ownerId}-${i}.webp`,
      thumb_file: `t-${ownerId}-${i}.webp`,
      width: 1600,
      height: 1200,
      bytes: 1000,
      folder: inTrips(i) ? 'Trips' : 'All',
      caption: '',
      position: -i,
      created_at: new Date(created + i * 1000).toISOString(),
    }));
    await t.app.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 1000)
        await trx
          .insertInto('gallery_images')
          .values(rows.slice(i, i + 1000))
          .execute();
      const reactions = rows
        .filter((_, i) => liked(i))
        .map((row) => ({
          image_id: row.id,
          user_id: viewerId,
          kind: 'like' as const,
          created_at: row.created_at,
        }));
      for (let i = 0; i < reactions.length; i += 1000)
        await trx
          .insertInto('image_reactions')
          .values(reactions.slice(i, i + 1000))
          .execute();
    });
    order = rows.map((row) => row.id).reverse();
  }, 60_000);

  async function page(member: Member, query: Record<string, string>) {
    return t.app.inject({
      method: 'GET',
      url: '/api/gallery',
      query,
      headers: asBearer(member),
    });
  }

  async function pageOk(member: Member, query: Record<string, string>) {
    const response = await page(member, query);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<GalleryListResponse>();
  }

  /** Every page to the end; the ids in the order the pages gave them. */
  async function walk(member: Member, query: Record<string, string>) {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    let last: GalleryListResponse | undefined;
    do {
      last = await pageOk(member, { ...query, ...(cursor ? { cursor } : {}) });
      seen.push(...last.images.map((image) => image.id));
      cursor = last.nextCursor;
      pages += 1;
    } while (cursor && pages <= IMAGES);
    return { seen, pages, last };
  }

  function move(id: string, where: { before: string } | { after: string }) {
    return t.app.inject({
      method: 'POST',
      url: '/api/gallery/reorder',
      payload: { id, ...where },
      headers: asBearer(owner),
    });
  }

  /** The same move applied to the ids kept here. */
  function moved(id: string, where: { before: string } | { after: string }) {
    const rest = order.filter((other) => other !== id);
    const target = 'before' in where ? where.before : where.after;
    const at = rest.indexOf(target) + ('before' in where ? 0 : 1);
    order = [...rest.slice(0, at), id, ...rest.slice(at)];
  }

  it('answers the first page of 60 newest first, with the total and the next cursor', async () => {
    const body = await pageOk(owner, {});
    expect(body.images).toHaveLength(GALLERY_PAGE_DEFAULT);
    expect(body.images.map((image) => image.id)).toEqual(order.slice(0, GALLERY_PAGE_DEFAULT));
    expect(body.total).toBe(IMAGES);
    expect(typeof body.nextCursor).toBe('string');
    // Reactions come with each image of the page.
    const first = body.images.find((image) => image.id === 'img-39999');
    expect(first?.likes).toEqual(liked(39_999) ? [viewer.user.id] : []);
    expect(body.images.filter((image) => image.likes.length > 0)).toHaveLength(
      body.images.filter((image) => liked(Number(image.id.slice(4)))).length,
    );
  });

  it('walks all 40,000 in saved order, 200 a page, none missing or twice, the last cursor null', async () => {
    const { seen, pages, last } = await walk(owner, { limit: String(GALLERY_PAGE_MAX) });
    expect(pages).toBe(IMAGES / GALLERY_PAGE_MAX);
    expect(last?.images).toHaveLength(GALLERY_PAGE_MAX);
    expect(last?.nextCursor).toBeNull();
    expect(new Set(seen).size).toBe(IMAGES);
    expect(seen).toEqual(order);
  });

  it('ends a folder on a short last page with a null cursor', async () => {
    const { seen, pages, last } = await walk(owner, { folder: 'Trips', limit: '150' });
    expect(seen).toHaveLength(IMAGES / 4);
    expect(pages).toBe(Math.ceil(IMAGES / 4 / 150));
    expect(last?.images).toHaveLength((IMAGES / 4) % 150);
    expect(last?.nextCursor).toBeNull();
  });

  it('filters a folder: its images only, in saved order, and its own total', async () => {
    const trips = order.filter((id) => inTrips(Number(id.slice(4))));
    const { seen } = await walk(owner, { folder: 'Trips', limit: '200' });
    expect(seen).toEqual(trips);
    const first = await pageOk(owner, { folder: 'Trips' });
    expect(first.total).toBe(IMAGES / 4);
    const all = await pageOk(owner, { folder: 'All', limit: '1' });
    expect(all.total).toBe(IMAGES - IMAGES / 4);
  });

  it('counts folders, images and likes received without reading the images', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/gallery/folders',
      headers: asBearer(viewer),
      query: { username: owner.username },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<GalleryFoldersResponse>()).toEqual({
      folders: ['All', 'Trips'],
      counts: { All: IMAGES - IMAGES / 4, Trips: IMAGES / 4 },
      total: IMAGES,
      likes: Math.ceil(IMAGES / 3),
    });
  });

  it("lets another member page through the owner's gallery by id or username", async () => {
    const byId = await pageOk(viewer, { userId: owner.user.id, limit: '200' });
    const next = await pageOk(viewer, {
      username: owner.username,
      limit: '200',
      cursor: byId.nextCursor ?? '',
    });
    expect([...byId.images, ...next.images].map((image) => image.id)).toEqual(order.slice(0, 400));
    expect(next.total).toBe(IMAGES);
    // Their own gallery is empty, with no next page.
    expect(await pageOk(viewer, {})).toEqual({ images: [], nextCursor: null, total: 0 });
  });

  it.each([['0'], ['201'], ['-1'], ['1.5'], ['many'], ['']])(
    'refuses limit=%s with a 400 in words',
    async (limit) => {
      const response = await page(owner, { limit });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: GALLERY_LIMIT_INVALID });
    },
  );

  it.each([['!!!'], ['abc'], [Buffer.from('p1.5').toString('base64url')], ['x'.repeat(101)]])(
    'refuses the cursor %s with a 400 in words',
    async (cursor) => {
      const response = await page(owner, { cursor });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: GALLERY_CURSOR_INVALID });
    },
  );

  it('moves an image across page boundaries, before or after another, shifting those between', async () => {
    const at = (index: number) => order[index] ?? '';
    // The last of page one goes after the first of page two, and back before the first of page one.
    const steps: [string, { before: string } | { after: string }][] = [
      [at(59), { after: at(60) }],
      [at(61), { before: at(0) }],
      [at(120), { before: at(59) }],
    ];
    for (const [id, where] of steps) {
      const response = await move(id, where);
      expect(response.statusCode, response.body).toBe(200);
      moved(id, where);
    }
    const pages: string[] = [];
    let cursor = '';
    for (let i = 0; i < 3; i += 1) {
      const body = await pageOk(owner, cursor ? { cursor } : {});
      pages.push(...body.images.map((image) => image.id));
      cursor = body.nextCursor ?? '';
    }
    expect(pages).toEqual(order.slice(0, 180));
  });

  it('moves the first image after the last one, the whole gallery shifting, in one call', async () => {
    const first = order[0] ?? '';
    const last = order.at(-1) ?? '';
    const response = await move(first, { after: last });
    expect(response.statusCode, response.body).toBe(200);
    moved(first, { after: last });
    const { seen } = await walk(owner, { limit: '200' });
    expect(seen).toEqual(order);
    expect(seen.at(-1)).toBe(first);
  });

  it('still takes a whole order, of a page of 200', async () => {
    const pageIds = order.slice(0, 200);
    const reversed = [...pageIds].reverse();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/gallery/reorder',
      payload: { order: reversed },
      headers: asBearer(owner),
    });
    expect(response.statusCode, response.body).toBe(200);
    order = [...reversed, ...order.slice(200)];
    const body = await pageOk(owner, { limit: '200' });
    expect(body.images.map((image) => image.id)).toEqual(reversed);
  });

  it('refuses a move without its place, with a list too, or of an image not the owner’s', async () => {
    const [a = '', b = ''] = order;
    for (const payload of [
      { id: a },
      { id: a, before: b, after: b },
      { id: a, before: b, order: [a, b] },
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/gallery/reorder',
        payload,
        headers: asBearer(owner),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: GALLERY_MOVE_INVALID });
    }
    // The viewer moving the owner's images: not theirs, so not found, and nothing moves.
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/gallery/reorder',
      payload: { id: a, after: b },
      headers: asBearer(viewer),
    });
    expect(response.statusCode).toBe(404);
    const body = await pageOk(owner, { limit: '2' });
    expect(body.images.map((image) => image.id)).toEqual([a, b]);
  });
});
