import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { parsingListener } from '../../lib/socket.ts';
import { receiveGalleryChange, receiveLiveImage, useGallery } from './store.ts';
import { galleryImage, json, queuedAnswer } from '../../test/gallery.ts';
import { waitingItem } from '../../test/outbox.ts';
import { useOutboxItems } from '../offline/outbox.ts';

type FetchMock = ReturnType<typeof vi.fn<(url: string, init?: RequestInit) => Promise<Response>>>;

const ids = () => useGallery.getState().galleries.owner?.items.map((image) => image.id);
const imageOf = (id: string) =>
  useGallery.getState().galleries.owner?.items.find((image) => image.id === id);
const pathOf = (call: unknown[]) => decodeURIComponent(new URL(call[0] as string).pathname);

function seed(images = [galleryImage('a'), galleryImage('b'), galleryImage('c')]) {
  useGallery.setState({
    galleries: { owner: { status: 'ready', items: images, folders: ['All'] } },
  });
}

describe('the gallery store', () => {
  let fetchMock: FetchMock;
  beforeEach(() => {
    vi.useFakeTimers();
    useGallery.getState().reset();
    useSession.setState({ status: 'signedIn', user: { id: 'me', username: 'me' } as CurrentUser });
    fetchMock = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>();
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  describe('loading', () => {
    it('reads the list and the folders of an owner', async () => {
      fetchMock.mockImplementation((url) =>
        Promise.resolve(
          url.includes('/folders')
            ? json({ folders: ['root', 'Trips', 'All'] })
            : json({ images: [galleryImage('a')] }),
        ),
      );
      await useGallery.getState().load({ id: 'owner', username: 'vega' });
      await useGallery.getState().loadFolders({ id: 'owner', username: 'vega' });
      expect(ids()).toEqual(['a']);
      expect(useGallery.getState().galleries.owner?.folders).toEqual(['All', 'Trips']);
      expect(new URL(fetchMock.mock.calls[0]?.[0] ?? '').search).toBe(
        '?userId=owner&username=vega',
      );
    });
    it('keeps an image hidden while its delete is still running', async () => {
      seed();
      fetchMock.mockReturnValueOnce(new Promise(() => undefined));
      void useGallery.getState().remove('owner', 'b');
      fetchMock.mockResolvedValueOnce(json({ images: [galleryImage('a'), galleryImage('b')] }));
      await useGallery.getState().load({ id: 'owner', username: 'vega' });
      expect(ids()).toEqual(['a']);
    });
  });

  describe('a gallery the server no longer has for this member', () => {
    it('is emptied when a refresh answers 404, as after a block', async () => {
      seed();
      useGallery.setState((state) => ({
        galleries: {
          owner: {
            ...state.galleries.owner!,
            likes: 4,
            byFolder: { Trips: { status: 'ready', items: [galleryImage('t')] } },
          },
        },
      }));
      fetchMock.mockResolvedValueOnce(json({ error: 'No such gallery.' }, 404));
      await useGallery.getState().load({ id: 'owner', username: 'vega' });
      expect(useGallery.getState().galleries.owner).toEqual({
        status: 'missing',
        items: [],
        folders: ['All'],
      });
    });

    it('is emptied when the folders answer 404 too, and asked for afresh once forgotten', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(json({ error: 'No such gallery.' }, 404));
      await useGallery.getState().loadFolders({ id: 'owner', username: 'vega' });
      expect(useGallery.getState().galleries.owner?.status).toBe('missing');
      useGallery.getState().forgetMissing('owner');
      expect(useGallery.getState().galleries.owner).toBeUndefined();
    });
  });

  describe('deleting', () => {
    /** The first page of a gallery of ten: a and b loaded. */
    const seedFirstPage = () =>
      useGallery.setState({
        galleries: {
          owner: {
            status: 'ready',
            items: [galleryImage('a'), galleryImage('b')],
            nextCursor: 'c1',
            total: 10,
            folders: ['All'],
          },
        },
      });

    it('counts a delete once when its event comes after the answer', async () => {
      seedFirstPage();
      fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
      await expect(useGallery.getState().remove('owner', 'b')).resolves.toBe(true);
      expect(useGallery.getState().galleries.owner?.total).toBe(9);
      // The deletion's event reaches the tab that made it too.
      useGallery.getState().receiveDeleted('owner', 'b');
      expect(useGallery.getState().galleries.owner?.total).toBe(9);
      expect(ids()).toEqual(['a']);
    });

    it('counts a delete once when its event comes before the answer', async () => {
      seedFirstPage();
      let answer: (response: Response) => void = () => undefined;
      fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
      const done = useGallery.getState().remove('owner', 'b');
      useGallery.getState().receiveDeleted('owner', 'b');
      answer(new Response(null, { status: 204 }));
      await expect(done).resolves.toBe(true);
      useGallery.getState().receiveDeleted('owner', 'b');
      expect(useGallery.getState().galleries.owner?.total).toBe(9);
      // A late event about the deleted image does not bring it back.
      useGallery.getState().receiveImage(galleryImage('b'), { created: true });
      expect(ids()).toEqual(['a']);
    });

    it('hides the image at once and keeps it hidden when the server agrees', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
      const done = useGallery.getState().remove('owner', 'b');
      expect(ids()).toEqual(['a', 'c']);
      await expect(done).resolves.toBe(true);
      expect(ids()).toEqual(['a', 'c']);
      expect(pathOf(fetchMock.mock.calls[0] ?? [])).toBe('/api/gallery/b');
      expect(new URL(fetchMock.mock.calls[0]?.[0] ?? '').searchParams.get('accountId')).toBe('me');
    });

    it('tries the id, the id again after 250 ms, the file name and the full path, then restores the image', async () => {
      seed();
      fetchMock.mockImplementation(() =>
        Promise.resolve(
          new Response('{"error":"Image not found."}', { status: 404, statusText: 'Not Found' }),
        ),
      );
      const done = useGallery.getState().remove('owner', 'b');
      await vi.advanceTimersByTimeAsync(0);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(249);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(done).resolves.toBe(false);
      expect(fetchMock.mock.calls.map(pathOf)).toEqual([
        '/api/gallery/b',
        '/api/gallery/b',
        '/api/gallery/b.webp',
        '/api/gallery//uploads/gallery/b.webp',
      ]);
      expect(ids()).toEqual(['a', 'b', 'c']);
      expect(useGallery.getState().notice.owner).toBe('404 Not Found {"error":"Image not found."}');
    });

    it('stops at the first reference the server accepts', async () => {
      seed();
      fetchMock
        .mockResolvedValueOnce(json({ error: 'x' }, 500))
        .mockResolvedValueOnce(json({ error: 'x' }, 500))
        .mockResolvedValueOnce(new Response(null, { status: 204 }));
      const done = useGallery.getState().remove('owner', 'c');
      await vi.advanceTimersByTimeAsync(250);
      await expect(done).resolves.toBe(true);
      expect(fetchMock).toHaveBeenCalledTimes(3);
      expect(ids()).toEqual(['a', 'b']);
    });

    it('says Delete failed when the server cannot be reached, cuts long bodies at 120 characters', async () => {
      seed();
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
      const done = useGallery.getState().remove('owner', 'a');
      await vi.advanceTimersByTimeAsync(250);
      await done;
      expect(useGallery.getState().notice.owner).toBe('Delete failed');
      expect(ids()).toEqual(['a', 'b', 'c']);

      fetchMock.mockImplementation(() =>
        Promise.resolve(new Response('x'.repeat(300), { status: 500, statusText: 'Oops' })),
      );
      const again = useGallery.getState().remove('owner', 'a');
      await vi.advanceTimersByTimeAsync(250);
      await again;
      expect(useGallery.getState().notice.owner).toBe(`500 Oops ${'x'.repeat(120)}`);
    });
  });

  describe('reactions', () => {
    it('likes at once, drops the member’s dislike, then takes the server’s image', async () => {
      seed([galleryImage('a', { dislikes: ['me'] })]);
      let answer: (response: Response) => void = () => undefined;
      fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
      const done = useGallery.getState().react('owner', 'a', 'likes');
      expect(imageOf('a')).toMatchObject({ likes: ['me'], dislikes: [] });
      expect(JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string)).toEqual({
        accountId: 'me',
        likes: true,
      });
      answer(
        json({ image: galleryImage('a', { likes: ['me', 'other'], caption: 'from server' }) }),
      );
      await done;
      expect(imageOf('a')).toMatchObject({
        likes: ['me', 'other'],
        dislikes: [],
        caption: 'from server',
      });
    });

    it('a second click takes the like back', async () => {
      seed([galleryImage('a', { likes: ['me'] })]);
      fetchMock.mockResolvedValueOnce(json({ image: galleryImage('a') }));
      await useGallery.getState().react('owner', 'a', 'likes');
      expect(JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string)).toEqual({
        accountId: 'me',
        likes: false,
      });
      expect(imageOf('a')?.likes).toEqual([]);
    });

    it('restores the reactions when the save fails', async () => {
      seed([galleryImage('a', { likes: ['me'] })]);
      fetchMock.mockResolvedValueOnce(json({ error: 'nope' }, 500));
      await useGallery.getState().react('owner', 'a', 'dislikes');
      expect(imageOf('a')).toMatchObject({ likes: ['me'], dislikes: [] });
    });

    it('counts the like at once, then shows the server’s counts, and restores them on failure', async () => {
      seed([galleryImage('a', { likeCount: 2, dislikes: ['me'], dislikeCount: 1 })]);
      let answer: (response: Response) => void = () => undefined;
      fetchMock.mockReturnValueOnce(new Promise((resolve) => (answer = resolve)));
      const done = useGallery.getState().react('owner', 'a', 'likes');
      expect(imageOf('a')).toMatchObject({ likes: ['me'], likeCount: 3, dislikeCount: 0 });
      // Someone the member cannot see liked it meanwhile: the server counts them, naming nobody.
      answer(json({ image: { ...galleryImage('a', { likes: ['me'] }), likeCount: 4 } }));
      await done;
      expect(imageOf('a')).toMatchObject({ likes: ['me'], likeCount: 4, dislikeCount: 0 });

      fetchMock.mockResolvedValueOnce(json({ error: 'nope' }, 500));
      await useGallery.getState().react('owner', 'a', 'likes');
      expect(imageOf('a')).toMatchObject({ likes: ['me'], likeCount: 4, dislikeCount: 0 });
    });

    it('keeps a reaction the offline outbox holds', async () => {
      seed([galleryImage('a')]);
      fetchMock.mockResolvedValueOnce(queuedAnswer());
      await useGallery.getState().react('owner', 'a', 'likes');
      expect(imageOf('a')).toMatchObject({ likes: ['me'], likeCount: 1 });
    });

    it('lets only the latest of quick toggles write the answer back', async () => {
      seed([galleryImage('a')]);
      const answers: ((response: Response) => void)[] = [];
      fetchMock.mockImplementation(() => new Promise((resolve) => answers.push(resolve)));
      const first = useGallery.getState().react('owner', 'a', 'likes');
      const second = useGallery.getState().react('owner', 'a', 'dislikes');
      answers[1]?.(json({ image: galleryImage('a', { dislikes: ['me'] }) }));
      await second;
      answers[0]?.(json({ image: galleryImage('a', { likes: ['me'] }) }));
      await first;
      expect(imageOf('a')).toMatchObject({ likes: [], dislikes: ['me'] });
    });
  });

  describe('captions and folders', () => {
    it('saves a caption and keeps the server’s image', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(json({ image: galleryImage('a', { caption: 'Rings' }) }));
      await useGallery.getState().saveCaption('owner', 'a', 'Rings');
      expect(imageOf('a')?.caption).toBe('Rings');
    });
    it('rejects with the response’s text, or Failed to save', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(json({ error: 'Caption too long.' }, 400));
      await expect(useGallery.getState().saveCaption('owner', 'a', 'x')).rejects.toThrow(
        'Caption too long.',
      );
      fetchMock.mockResolvedValueOnce(new Response('', { status: 500 }));
      await expect(useGallery.getState().saveCaption('owner', 'a', 'x')).rejects.toThrow(
        'Failed to save',
      );
      expect(imageOf('a')?.caption).toBe('');
    });
    it('shows a caption the offline outbox holds as written', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(queuedAnswer());
      await useGallery.getState().saveCaption('owner', 'a', 'Rings');
      expect(imageOf('a')?.caption).toBe('Rings');
    });
    it('a typed folder is listed and selected before any image is in it', () => {
      seed();
      useGallery.getState().addFolder('owner', ' Trips ');
      expect(useGallery.getState().galleries.owner?.folders).toEqual(['All', 'Trips']);
      expect(useGallery.getState().selectedFolder.owner).toBe('Trips');
    });
  });

  describe('reordering', () => {
    it('applies a dragged photo at once and sends it as one move', async () => {
      seed([galleryImage('a'), galleryImage('b'), galleryImage('c'), galleryImage('d')]);
      fetchMock.mockResolvedValue(json({ ok: true }));
      await useGallery.getState().reorder('owner', ['b', 'a']);
      expect(ids()).toEqual(['b', 'a', 'c', 'd']);
      const body = (call = 0) =>
        JSON.parse(fetchMock.mock.calls[call]?.[1]?.body as string) as unknown;
      expect(pathOf(fetchMock.mock.calls[0] ?? [])).toBe('/api/gallery/reorder');
      expect(body()).toEqual({ accountId: 'me', userId: 'owner', id: 'b', before: 'a' });
      // Further on: just after the photo it now follows.
      await useGallery.getState().reorder('owner', ['a', 'c', 'd', 'b']);
      expect(ids()).toEqual(['a', 'c', 'd', 'b']);
      expect(body(1)).toEqual({ accountId: 'me', userId: 'owner', id: 'b', after: 'd' });
    });
    it('sends any other new order as the order of the part it names', async () => {
      seed([galleryImage('a'), galleryImage('b'), galleryImage('c'), galleryImage('d')]);
      fetchMock.mockResolvedValueOnce(json({ ok: true }));
      await useGallery.getState().reorder('owner', ['d', 'c', 'b', 'a']);
      expect(ids()).toEqual(['d', 'c', 'b', 'a']);
      const body = JSON.parse(fetchMock.mock.calls[0]?.[1]?.body as string) as unknown;
      expect(body).toEqual({ accountId: 'me', userId: 'owner', order: ['d', 'c', 'b', 'a'] });
    });
    it('only logs a failure and keeps the order', async () => {
      seed();
      fetchMock.mockResolvedValueOnce(json({ error: 'no' }, 500));
      await useGallery.getState().reorder('owner', ['c', 'b', 'a']);
      expect(ids()).toEqual(['c', 'b', 'a']);
      expect(console.warn).toHaveBeenCalled();
    });
  });

  describe('live events', () => {
    it('adds a created image first, replaces an updated one and drops a deleted one', () => {
      seed([galleryImage('a')]);
      useGallery.getState().receiveImage(galleryImage('n'), { created: true });
      expect(ids()).toEqual(['n', 'a']);
      useGallery.getState().receiveImage(galleryImage('a', { likes: ['x'] }));
      expect(imageOf('a')?.likes).toEqual(['x']);
      useGallery.getState().receiveDeleted('owner', 'n');
      expect(ids()).toEqual(['a']);
    });
    it('takes counts from a socket event and keeps the member’s own like, which it does not name', () => {
      seed([galleryImage('a', { likes: ['me'] })]);
      const updated = parsingListener('gallery:image:updated', (payload) =>
        receiveLiveImage(payload, false),
      );
      const { likes: _likes, dislikes: _dislikes, ...live } = galleryImage('a');
      updated({ ...live, caption: 'new', likeCount: 5, dislikeCount: 2 });
      expect(imageOf('a')).toMatchObject({
        caption: 'new',
        likes: ['me'],
        likeCount: 5,
        dislikeCount: 2,
      });
      // The member's own change, heard on another of their devices.
      updated({ ...live, likeCount: 4, dislikeCount: 3, myReaction: 'dislike' });
      expect(imageOf('a')).toMatchObject({
        likes: [],
        dislikes: ['me'],
        likeCount: 4,
        dislikeCount: 3,
      });
      const created = parsingListener('gallery:image:created', (payload) =>
        receiveLiveImage(payload, true),
      );
      created({ ...galleryImage('n'), likes: undefined, dislikes: undefined });
      expect(ids()).toEqual(['n', 'a']);
      expect(imageOf('n')).toMatchObject({ likes: [], likeCount: 0 });
    });
    it('moves the profile’s likes count with the counts of a socket event', () => {
      seed([galleryImage('a', { likeCount: 2 })]);
      useGallery.setState((state) => ({
        galleries: { owner: { ...state.galleries.owner!, likes: 10 } },
      }));
      const { likes: _likes, dislikes: _dislikes, ...live } = galleryImage('a');
      receiveLiveImage({ ...live, likeCount: 3, dislikeCount: 0 }, false);
      expect(useGallery.getState().galleries.owner?.likes).toBe(11);
    });
    it('ignores an update for an image it does not show', () => {
      seed([galleryImage('a')]);
      useGallery.getState().receiveImage(galleryImage('zz'));
      expect(ids()).toEqual(['a']);
    });
    it('applies another tab’s new order', () => {
      seed();
      receiveGalleryChange({ ownerId: 'owner', order: ['c', 'a', 'b'] });
      expect(ids()).toEqual(['c', 'a', 'b']);
    });
    it('follows the owner’s presence', () => {
      useGallery.getState().setOnline('owner', true);
      expect(useGallery.getState().online.owner).toBe(true);
      useGallery.getState().setOnline('owner', false);
      expect(useGallery.getState().online.owner).toBe(false);
    });
  });

  describe('changes waiting in the outbox', () => {
    afterEach(() => useOutboxItems.setState({ items: [] }));
    const waiting = () =>
      useOutboxItems.setState({
        items: [
          waitingItem(1, 'PATCH', '/api/gallery/a', { accountId: 'me', likes: true }),
          waitingItem(2, 'PATCH', '/api/gallery/a', { accountId: 'me', caption: 'Sea' }),
          waitingItem(3, 'PATCH', '/api/gallery/a', { accountId: 'me', caption: 'Sea at dusk' }),
          waitingItem(4, 'POST', '/api/users/friends/accept', { fromUserId: 'u1' }),
        ],
      });

    it('show over the server’s images, in the order made, however often the list is read', async () => {
      waiting();
      fetchMock.mockImplementation(() =>
        Promise.resolve(json({ images: [galleryImage('a', { likes: ['x'] }), galleryImage('b')] })),
      );
      for (let read = 0; read < 2; read++) {
        await useGallery.getState().load({ id: 'owner', username: 'vega' });
        expect(imageOf('a')).toMatchObject({
          likes: ['x', 'me'],
          likeCount: 2,
          caption: 'Sea at dusk',
        });
        expect(imageOf('b')).toEqual(galleryImage('b'));
      }
    });

    it('show on the images held as soon as the outbox lists them, a dislike given way to a like', () => {
      seed([galleryImage('a', { dislikes: ['me'] }), galleryImage('b')]);
      waiting();
      expect(imageOf('a')).toMatchObject({
        likes: ['me'],
        likeCount: 1,
        dislikes: [],
        dislikeCount: 0,
        caption: 'Sea at dusk',
      });
      // A like taken back later, offline too: the two leave no like.
      useOutboxItems.setState({
        items: [
          ...useOutboxItems.getState().items,
          waitingItem(5, 'PATCH', '/api/gallery/a', { accountId: 'me', likes: false }),
        ],
      });
      expect(imageOf('a')).toMatchObject({ likes: [], likeCount: 0 });
    });

    it('keep the count of the gallery’s likes in step', () => {
      useGallery.setState({
        galleries: {
          owner: { status: 'ready', items: [galleryImage('a')], folders: ['All'], likes: 4 },
        },
      });
      waiting();
      expect(useGallery.getState().galleries.owner?.likes).toBe(5);
      waiting();
      expect(useGallery.getState().galleries.owner?.likes).toBe(5);
    });
  });
});
