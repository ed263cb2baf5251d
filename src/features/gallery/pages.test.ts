import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { profileCounts } from '../profile/counters.ts';
import { pageUrl } from './api.ts';
import { readPage } from '../../contracts/readers/gallery.ts';
import { singleMove } from './images.ts';
import { readFolder, receiveGalleryChange, totalOf, useGallery } from './store.ts';
import { galleryImage, json } from '../../test/gallery.ts';

type FetchMock = ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;

const owner = { id: 'owner', username: 'vega' };
const all = () => useGallery.getState().galleries.owner;
const ids = () => all()?.items.map((image) => image.id);
const folderIds = (folder: string) => all()?.byFolder?.[folder]?.items.map((image) => image.id);

/** A server of `count` images in pages of `size`, the cursor being the next index. */
function pagedServer(count: number, size = 3, folderOf = (_index: number) => 'All') {
  const images = Array.from({ length: count }, (_, index) =>
    galleryImage(`i${index}`, { folder: folderOf(index), likes: index === 0 ? ['x'] : [] }),
  );
  return (url: string) => {
    const query = new URL(url).searchParams;
    if (new URL(url).pathname.endsWith('/folders'))
      return Promise.resolve(json({ folders: ['Trips'], total: count, likes: 7 }));
    const folder = query.get('folder');
    const list = folder ? images.filter((image) => image.folder === folder) : images;
    const start = Number(query.get('cursor') ?? 0);
    const limit = Number(query.get('limit') ?? size);
    const end = Math.min(start + limit, list.length);
    return Promise.resolve(
      json({
        images: list.slice(start, end),
        nextCursor: end < list.length ? String(end) : null,
        total: list.length,
      }),
    );
  };
}

describe('the paged gallery', () => {
  let fetchMock: FetchMock;
  beforeEach(() => {
    useGallery.getState().reset();
    useSession.setState({ status: 'signedIn', user: { id: 'me', username: 'me' } as CurrentUser });
    fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => vi.unstubAllGlobals());

  describe('reading pages', () => {
    it('reads a page, and an answer without a cursor as everything', () => {
      expect(readPage({ images: [galleryImage('a')], nextCursor: 'n', total: 9 })).toMatchObject({
        nextCursor: 'n',
        total: 9,
      });
      expect(readPage([galleryImage('a'), galleryImage('b')])).toMatchObject({
        nextCursor: null,
        total: 2,
      });
      expect(readPage({ images: [galleryImage('a')] })).toMatchObject({
        nextCursor: null,
        total: 1,
      });
    });
    it('asks for the first page at one address, with later pages after it', () => {
      expect(pageUrl(owner)).toBe('/api/gallery?userId=owner&username=vega');
      expect(pageUrl(owner, { folder: 'All' })).toBe('/api/gallery?userId=owner&username=vega');
      expect(pageUrl(owner, { folder: 'Trips', cursor: 'c1', limit: 200 })).toBe(
        '/api/gallery?userId=owner&username=vega&folder=Trips&limit=200&cursor=c1',
      );
    });
  });

  describe('loading', () => {
    it('loads the first page, then the next ones to the end', async () => {
      fetchMock.mockImplementation(pagedServer(7));
      await useGallery.getState().load(owner);
      expect(ids()).toEqual(['i0', 'i1', 'i2']);
      expect(totalOf(all())).toBe(7);
      expect(all()?.nextCursor).toBe('3');
      expect(await useGallery.getState().loadMore(owner)).toBe(true);
      expect(await useGallery.getState().loadMore(owner)).toBe(true);
      expect(ids()).toHaveLength(7);
      expect(all()?.nextCursor).toBeNull();
      expect(await useGallery.getState().loadMore(owner)).toBe(false);
      expect(fetchMock).toHaveBeenCalledTimes(3);
    });
    it('asks for one page at a time', async () => {
      fetchMock.mockImplementation(pagedServer(9));
      await useGallery.getState().load(owner);
      const [first, second] = [
        useGallery.getState().loadMore(owner),
        useGallery.getState().loadMore(owner),
      ];
      expect(await second).toBe(false);
      expect(await first).toBe(true);
      expect(ids()).toHaveLength(6);
    });
    it('keeps the pages read further when the first page is loaded again', async () => {
      fetchMock.mockImplementation(pagedServer(9));
      await useGallery.getState().load(owner);
      await useGallery.getState().loadMore(owner);
      await useGallery.getState().load(owner);
      expect(ids()).toEqual(['i0', 'i1', 'i2', 'i3', 'i4', 'i5']);
      expect(all()?.nextCursor).toBe('6');
    });
    it('marks a failed page and does not ask again on its own', async () => {
      const server = pagedServer(9);
      fetchMock.mockImplementation(server);
      await useGallery.getState().load(owner);
      fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
      expect(await useGallery.getState().loadMore(owner)).toBe(false);
      expect(all()?.more).toBe('error');
      expect(ids()).toHaveLength(3);
      // Asked again (the member's Try again), it goes on.
      expect(await useGallery.getState().loadMore(owner)).toBe(true);
      expect(all()?.more).toBe('idle');
    });
    it('drops a page answered after a fresh first page', async () => {
      const server = pagedServer(9);
      let release = () => {};
      fetchMock.mockImplementation(server);
      await useGallery.getState().load(owner);
      fetchMock.mockImplementationOnce(
        (url) => new Promise((resolve) => (release = () => void server(url).then(resolve))),
      );
      const late = useGallery.getState().loadMore(owner);
      await useGallery.getState().load(owner);
      release();
      expect(await late).toBe(false);
      expect(ids()).toEqual(['i0', 'i1', 'i2']);
    });
    it('gives each folder its own pages', async () => {
      fetchMock.mockImplementation(pagedServer(8, 2, (index) => (index % 2 ? 'Trips' : 'All')));
      await useGallery.getState().load(owner);
      await useGallery.getState().load(owner, 'Trips');
      expect(ids()).toEqual(['i0', 'i1']);
      expect(folderIds('Trips')).toEqual(['i1', 'i3']);
      expect(totalOf(all()?.byFolder?.Trips)).toBe(4);
      expect(new URL(fetchMock.mock.calls[1]?.[0] ?? '').searchParams.get('folder')).toBe('Trips');
      await useGallery.getState().loadMore(owner, 'Trips');
      expect(folderIds('Trips')).toEqual(['i1', 'i3', 'i5', 'i7']);
      expect(ids()).toEqual(['i0', 'i1']);
    });
    it('reads a chosen folder once when the grid and the manager both ask', async () => {
      fetchMock.mockImplementation(pagedServer(4, 2, () => 'Trips'));
      readFolder(owner, 'Trips');
      readFolder(owner, 'Trips');
      await vi.waitFor(() => expect(folderIds('Trips')).toEqual(['i0', 'i1']));
      expect(fetchMock).toHaveBeenCalledTimes(1);
    });
    it('finds a linked image on a later page, up to its limit', async () => {
      fetchMock.mockImplementation(pagedServer(500, 3));
      await useGallery.getState().load(owner);
      expect(await useGallery.getState().seek(owner, 'i250')).toBe(true);
      // Pages of the largest size: 3 + 200 + 200.
      expect(ids()).toHaveLength(403);
      expect(new URL(fetchMock.mock.calls[1]?.[0] ?? '').searchParams.get('limit')).toBe('200');
      expect(await useGallery.getState().seek(owner, 'gone')).toBe(false);
      expect(ids()).toHaveLength(500);
    });
  });

  describe('live changes with some pages loaded', () => {
    beforeEach(async () => {
      fetchMock.mockImplementation(pagedServer(9, 3, (index) => (index < 2 ? 'Trips' : 'All')));
      await useGallery.getState().load(owner);
      await useGallery.getState().load(owner, 'Trips');
      await useGallery.getState().loadFolders(owner);
    });

    it('puts a new upload first and counts it, in its folder too', () => {
      useGallery.getState().receiveImage(galleryImage('n', { folder: 'Trips' }), { created: true });
      expect(ids()).toEqual(['n', 'i0', 'i1', 'i2']);
      expect(totalOf(all())).toBe(10);
      expect(folderIds('Trips')).toEqual(['n', 'i0', 'i1']);
      expect(totalOf(all()?.byFolder?.Trips)).toBe(3);
      // The same image heard again (the socket after the upload's answer) is not counted twice.
      useGallery.getState().receiveImage(galleryImage('n', { folder: 'Trips' }), { created: true });
      expect(totalOf(all())).toBe(10);
    });
    it('takes a deleted image away, and counts one not loaded here once', () => {
      useGallery.getState().receiveDeleted('owner', 'i1');
      expect(ids()).toEqual(['i0', 'i2']);
      expect(totalOf(all())).toBe(8);
      expect(folderIds('Trips')).toEqual(['i0']);
      useGallery.getState().receiveDeleted('owner', 'i8');
      useGallery.getState().receiveDeleted('owner', 'i8');
      expect(totalOf(all())).toBe(7);
      expect(ids()).toEqual(['i0', 'i2']);
    });
    it('moves the likes count with reactions on loaded images', () => {
      expect(all()?.likes).toBe(7);
      useGallery.getState().receiveImage(galleryImage('i2', { likes: ['a', 'b'] }));
      expect(all()?.likes).toBe(9);
      useGallery.getState().receiveDeleted('owner', 'i0');
      expect(all()?.likes).toBe(8);
      const gallery = all();
      expect(
        profileCounts([], gallery?.items ?? [], {
          photos: totalOf(gallery),
          likes: gallery?.likes,
        }),
      ).toEqual({ friends: 0, posts: 8, likes: 8 });
    });
    it('deletes an image from every list and puts it back in each if the server refuses', async () => {
      fetchMock.mockResolvedValue(json({ error: 'no' }, 500));
      vi.useFakeTimers();
      const done = useGallery.getState().remove('owner', 'i1');
      expect(ids()).toEqual(['i0', 'i2']);
      expect(folderIds('Trips')).toEqual(['i0']);
      await vi.runAllTimersAsync();
      vi.useRealTimers();
      expect(await done).toBe(false);
      expect(ids()).toEqual(['i0', 'i1', 'i2']);
      expect(folderIds('Trips')).toEqual(['i0', 'i1']);
      expect(totalOf(all())).toBe(9);
    });
    it('applies another tab’s new order of a part to every list', () => {
      receiveGalleryChange({ ownerId: 'owner', order: ['i1', 'i0'] });
      expect(ids()).toEqual(['i1', 'i0', 'i2']);
      expect(folderIds('Trips')).toEqual(['i1', 'i0']);
    });
  });

  describe('one image moved', () => {
    it('is found before or after its new neighbour', () => {
      expect(singleMove(['a', 'b', 'c', 'd'], ['c', 'a', 'b', 'd'])).toEqual({
        id: 'c',
        before: 'a',
      });
      expect(singleMove(['a', 'b', 'c', 'd'], ['b', 'c', 'a', 'd'])).toEqual({
        id: 'a',
        after: 'c',
      });
      expect(singleMove(['a', 'b'], ['b', 'a'])).toEqual({ id: 'b', before: 'a' });
      expect(singleMove(['a', 'b', 'c'], ['a', 'b', 'c'])).toBeNull();
      expect(singleMove(['a', 'b', 'c', 'd'], ['b', 'a', 'd', 'c'])).toBeNull();
    });
  });
});
