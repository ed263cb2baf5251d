/**
 * A block hides a member's reactions too (docs/decisions.md "Reactions under a block"): every
 * answer that lists who reacted to a photo leaves out a member blocked either way with the one
 * asking, and counts everyone; socket events carry counts and never an id of who reacted, and the
 * member who reacted hears their own reaction on each of their sockets. The last suite does it
 * across two nodes on one Redis.
 */
import { describe, expect, it, vi } from 'vitest';
import type { GalleryImage, GalleryImageLive } from '../../src/contracts/gallery.ts';
import { listGallery, patchImage, uploadImage } from './gallery-helpers.ts';
import { type Member, asBearer, forEachDialect, signupMembers, useTestApp } from './helpers.ts';
import { describeTwoNodes, useLiveApp } from './live-app.ts';
import { block, unblock } from './safety-helpers.ts';
import { type Seen, join, record } from './sockets.ts';

const twoNodes = await describeTwoNodes('the cross-node reaction events', 'reactions');

/** Each rule is held both ways: the reactor blocked the viewer, or the viewer the reactor. */
const BOTH_SIDES = ['the reactor blocks the viewer', 'the viewer blocks the reactor'] as const;

/** What every image event carries: the image's fields and the counts, never who reacted. */
const LIVE_KEYS = [
  'caption',
  'createdAt',
  'dislikeCount',
  'folder',
  'height',
  'id',
  'likeCount',
  'owner',
  'thumbnailUrl',
  'url',
  'width',
].sort();

/**
 * The gallery:image:updated payloads a socket heard before the marker: an upload of `markerOwner`,
 * whose gallery the socket watches. Events on one socket keep their order, so an update sent
 * before the marker is in the answer.
 */
async function updatesBefore(seen: Seen, markerOwner: string): Promise<GalleryImageLive[]> {
  const isMarker = ([event, payload]: [string, unknown]) =>
    event === 'gallery:image:created' && (payload as GalleryImageLive).owner.id === markerOwner;
  await vi.waitFor(() => expect(seen.some(isMarker)).toBe(true), { timeout: 5_000 });
  return seen
    .slice(0, seen.findIndex(isMarker))
    .filter(([event]) => event === 'gallery:image:updated')
    .map(([, payload]) => payload as GalleryImageLive);
}

/** Fails when any of these members' ids is anywhere in `payload`. */
function namesNone(payload: unknown, members: readonly Member[]) {
  const text = JSON.stringify(payload);
  for (const member of members) expect(text).not.toContain(member.user.id);
}

forEachDialect((dialect) => {
  describe('one node', () => {
    const t = useTestApp(dialect);
    const { connectAs } = useLiveApp(t);

    /**
     * An owner's photo that the reactor likes and a bystander dislikes, and a viewer: four
     * members, none blocked yet.
     */
    const scene = async () => {
      const [owner, reactor, viewer, bystander] = await signupMembers(t.app, 4);
      const photo = await uploadImage(t.app, owner);
      await patchImage(t.app, reactor, photo.id, { likes: true });
      await patchImage(t.app, bystander, photo.id, { dislikes: true });
      return { owner, reactor, viewer, bystander, photo };
    };
    type Scene = Awaited<ReturnType<typeof scene>>;

    const blockAs = (side: (typeof BOTH_SIDES)[number], s: Scene) =>
      side === 'the reactor blocks the viewer'
        ? block(t.app, s.reactor, s.viewer)
        : block(t.app, s.viewer, s.reactor);

    /** The photo in `member`'s first page of the owner's gallery. */
    const photoAs = async (member: Member, s: Scene): Promise<GalleryImage> => {
      const images = await listGallery(t.app, member, { userId: s.owner.user.id });
      const found = images.find((image) => image.id === s.photo.id);
      if (!found) throw new Error('the photo is not in the gallery');
      return found;
    };

    describe.each(BOTH_SIDES)('when %s', (side) => {
      it('leaves the reactor out of the viewer’s gallery page, counted but not named', async () => {
        const s = await scene();
        await blockAs(side, s);

        const seen = await photoAs(s.viewer, s);

        expect(seen).toMatchObject({
          likes: [],
          dislikes: [s.bystander.user.id],
          likeCount: 1,
          dislikeCount: 1,
        });
        namesNone(seen, [s.reactor]);
      });

      it('leaves the reactor out of the viewer’s own reaction answer', async () => {
        const s = await scene();
        await blockAs(side, s);

        const response = await patchImage(t.app, s.viewer, s.photo.id, { likes: true });

        expect(response.statusCode).toBe(200);
        const answered = response.json<{ image: GalleryImage }>().image;
        expect(answered).toMatchObject({
          likes: [s.viewer.user.id],
          dislikes: [s.bystander.user.id],
          likeCount: 2,
          dislikeCount: 1,
        });
        namesNone(answered, [s.reactor]);
      });

      it('leaves the viewer out of what the reactor reads, the same both ways', async () => {
        const s = await scene();
        await patchImage(t.app, s.viewer, s.photo.id, { dislikes: true });
        await blockAs(side, s);

        const seen = await photoAs(s.reactor, s);

        expect(seen).toMatchObject({
          likes: [s.reactor.user.id],
          dislikes: [s.bystander.user.id],
          likeCount: 1,
          dislikeCount: 2,
        });
        namesNone(seen, [s.viewer]);
      });

      it('still names the reactor to the owner and a bystander, and again to the viewer after an unblock', async () => {
        const s = await scene();
        await blockAs(side, s);

        for (const member of [s.owner, s.bystander])
          expect(await photoAs(member, s)).toMatchObject({
            likes: [s.reactor.user.id],
            dislikes: [s.bystander.user.id],
            likeCount: 1,
          });

        if (side === 'the reactor blocks the viewer') await unblock(t.app, s.reactor, s.viewer);
        else await unblock(t.app, s.viewer, s.reactor);
        expect(await photoAs(s.viewer, s)).toMatchObject({
          likes: [s.reactor.user.id],
          likeCount: 1,
        });
      });
    });

    it('leaves a member the owner blocked out of the owner’s own page and edit answers, the counter counting them', async () => {
      const s = await scene();
      await block(t.app, s.owner, s.reactor);

      expect(await photoAs(s.owner, s)).toMatchObject({ likes: [], likeCount: 1 });
      const edited = await patchImage(t.app, s.owner, s.photo.id, { caption: 'Sea' });
      expect(edited.statusCode).toBe(200);
      const answered = edited.json<{ image: GalleryImage }>().image;
      expect(answered).toMatchObject({ caption: 'Sea', likes: [], likeCount: 1 });
      namesNone(answered, [s.reactor]);
      // The profile's counter is a number, and counts every like (docs/decisions.md "Reactions
      // under a block").
      const folders = await t.app.inject({
        method: 'GET',
        url: '/api/gallery/folders',
        headers: asBearer(s.owner),
      });
      expect(folders.json()).toMatchObject({ likes: 1 });
    });

    it('sends watchers counts and no ids, and the reactor’s own sockets their reaction', async () => {
      const [owner, reactor, viewer, bystander] = await signupMembers(t.app, 4);
      const photo = await uploadImage(t.app, owner);
      await patchImage(t.app, bystander, photo.id, { likes: true });
      await block(t.app, reactor, viewer);
      // The viewer watches the gallery and the image; the reactor one tab watching the gallery
      // and one watching nothing; a bystander watches the gallery.
      const tabs = {
        viewer: await connectAs(viewer),
        viewerImage: await connectAs(viewer),
        bystander: await connectAs(bystander),
        reactorWatching: await connectAs(reactor),
        reactorIdle: await connectAs(reactor),
      };
      for (const tab of [tabs.viewer, tabs.bystander, tabs.reactorWatching])
        expect(await join(tab, 'gallery:join', { ownerId: owner.user.id })).toMatchObject({
          ok: true,
        });
      expect(await join(tabs.viewerImage, 'image:join', { imageId: photo.id })).toMatchObject({
        ok: true,
      });
      // Where the markers below reach the tabs that do not watch the owner's gallery.
      await join(tabs.reactorIdle, 'gallery:join', { ownerId: reactor.user.id });
      await join(tabs.viewerImage, 'gallery:join', { ownerId: bystander.user.id });
      const seen = Object.fromEntries(
        Object.entries(tabs).map(([name, tab]) => [name, record(tab)]),
      ) as Record<keyof typeof tabs, Seen>;

      await patchImage(t.app, reactor, photo.id, { likes: true });
      await patchImage(t.app, reactor, photo.id, { likes: false });
      await patchImage(t.app, reactor, photo.id, { dislikes: true });
      // Markers: each tab watches one of these galleries.
      await uploadImage(t.app, owner);
      await uploadImage(t.app, reactor);
      await uploadImage(t.app, bystander);

      const counts = [
        { likeCount: 2, dislikeCount: 0 },
        { likeCount: 1, dislikeCount: 0 },
        { likeCount: 1, dislikeCount: 1 },
      ];
      for (const [name, marker] of [
        ['viewer', owner.user.id],
        ['viewerImage', bystander.user.id],
        ['bystander', owner.user.id],
      ] as const) {
        const updates = await updatesBefore(seen[name], marker);
        expect(updates.map(({ likeCount, dislikeCount }) => ({ likeCount, dislikeCount }))).toEqual(
          counts,
        );
        for (const update of updates) {
          expect(Object.keys(update).sort()).toEqual(LIVE_KEYS);
          namesNone(update, [reactor, bystander]);
        }
      }
      // Each of the reactor's sockets hears each change once, with their own reaction.
      const mine = counts.map((count, index) => ({
        ...count,
        myReaction: ['like', null, 'dislike'][index],
      }));
      for (const [name, marker] of [
        ['reactorWatching', owner.user.id],
        ['reactorIdle', reactor.user.id],
      ] as const) {
        const updates = await updatesBefore(seen[name], marker);
        expect(
          updates.map(({ likeCount, dislikeCount, myReaction }) => ({
            likeCount,
            dislikeCount,
            myReaction,
          })),
        ).toEqual(mine);
        for (const update of updates) {
          expect(Object.keys(update).sort()).toEqual([...LIVE_KEYS, 'myReaction'].sort());
          namesNone(update, [bystander]);
        }
      }
    });

    it('sends a new photo to its watchers without any reaction list', async () => {
      const [owner, watcher] = await signupMembers(t.app, 2);
      const tab = await connectAs(watcher);
      await join(tab, 'gallery:join', { ownerId: owner.user.id });
      const seen = record(tab);

      const photo = await uploadImage(t.app, owner);

      await vi.waitFor(() => expect(seen).toHaveLength(1));
      const [event, payload] = seen[0] ?? [];
      expect(event).toBe('gallery:image:created');
      expect(Object.keys(payload as object).sort()).toEqual(LIVE_KEYS);
      expect(payload).toMatchObject({ id: photo.id, likeCount: 0, dislikeCount: 0 });
    });
  });
});

twoNodes('two nodes on one Redis', ({ t, nodes, connectTo }) => {
  it('tells the reactor’s socket on the other node its reaction, and a watcher there only counts', async () => {
    const [owner, reactor, viewer] = await signupMembers(t.app, 3);
    const photo = await uploadImage(t.app, owner);
    await block(t.app, viewer, reactor);
    const watching = await connectTo(nodes.origin2, viewer);
    const reactorTab = await connectTo(nodes.origin2, reactor);
    for (const tab of [watching, reactorTab])
      expect(await join(tab, 'gallery:join', { ownerId: owner.user.id })).toMatchObject({
        ok: true,
      });
    const seen = { viewer: record(watching), reactor: record(reactorTab) };

    await patchImage(t.app, reactor, photo.id, { likes: true });
    await uploadImage(t.app, owner);

    const [heard] = await updatesBefore(seen.viewer, owner.user.id);
    expect(Object.keys(heard ?? {}).sort()).toEqual(LIVE_KEYS);
    expect(heard).toMatchObject({ id: photo.id, likeCount: 1 });
    namesNone(heard, [reactor]);
    expect(await updatesBefore(seen.reactor, owner.user.id)).toEqual([
      { ...heard, myReaction: 'like' },
    ]);
  });
});
