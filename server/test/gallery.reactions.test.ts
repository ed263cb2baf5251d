/** Likes and dislikes: exclusive per member, toggling, the whole image answered, like notifications. */
import type { FastifyInstance } from 'fastify';
import { beforeEach, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import type { NotificationPage } from '../../src/contracts/notifications.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import { type Member, asBearer, signupMembers, forEachApp, getNotifications } from './helpers.ts';

async function react(
  app: FastifyInstance,
  member: Member,
  image: GalleryImage,
  body: Record<string, unknown>,
) {
  const response = await patchImage(app, member, image.id, body);
  if (response.statusCode !== 200)
    throw new Error(`PATCH answered ${response.statusCode}: ${response.body}`);
  return response.json<{ image: GalleryImage }>().image;
}

async function likeNotifications(app: FastifyInstance, member: Member) {
  const response = await getNotifications(app, asBearer(member));
  expect(response.statusCode).toBe(200);
  return response.json<NotificationPage>().notifications.filter((item) => item.type === 'like');
}

forEachApp((t) => {
  let owner: Member;
  let alice: Member;
  let bob: Member;
  let image: GalleryImage;

  beforeEach(async () => {
    [owner, alice, bob] = await signupMembers(t.app, 3);
    image = await uploadImage(t.app, owner);
  });

  it('answers the whole image to a like, owner with username and profile image included', async () => {
    const updated = await react(t.app, alice, image, { likes: true });

    expect(updated).toMatchObject({
      id: image.id,
      url: image.url,
      thumbnailUrl: image.thumbnailUrl,
      folder: 'All',
      caption: '',
      likes: [alice.user.id],
      dislikes: [],
      likeCount: 1,
      dislikeCount: 0,
      owner: { id: owner.user.id, username: owner.username },
    });
    expect(updated.owner.profileImage).toMatch(/^\/uploads\/avatars\//);
    // docs/decisions.md "One canonical shape": one name per field, no aliases beside them.
    expect(Object.keys(updated).sort()).toEqual(
      [
        'caption',
        'createdAt',
        'dislikeCount',
        'dislikes',
        'folder',
        'height',
        'id',
        'likeCount',
        'likes',
        'owner',
        'thumbnailUrl',
        'url',
        'width',
      ].sort(),
    );
    expect(Object.keys(updated.owner).sort()).toEqual(['id', 'profileImage', 'username']);
  });

  it('moves a member from likes to dislikes and back, never both', async () => {
    expect(await react(t.app, alice, image, { likes: true })).toMatchObject({
      likes: [alice.user.id],
      dislikes: [],
    });
    expect(await react(t.app, alice, image, { dislikes: true })).toMatchObject({
      likes: [],
      dislikes: [alice.user.id],
    });
    expect(await react(t.app, alice, image, { likes: true })).toMatchObject({
      likes: [alice.user.id],
      dislikes: [],
    });
  });

  it('removes a like with {likes: false} and a dislike with {dislikes: false}', async () => {
    await react(t.app, alice, image, { likes: true });
    expect(await react(t.app, alice, image, { likes: false })).toMatchObject({
      likes: [],
      dislikes: [],
    });

    await react(t.app, alice, image, { dislikes: true });
    expect(await react(t.app, alice, image, { dislikes: false })).toMatchObject({
      likes: [],
      dislikes: [],
    });
  });

  it('keeps a dislike when {likes: false} is sent', async () => {
    await react(t.app, alice, image, { dislikes: true });

    expect(await react(t.app, alice, image, { likes: false })).toMatchObject({
      likes: [],
      dislikes: [alice.user.id],
    });
  });

  it('shows two members’ reactions side by side, in the list as well', async () => {
    await react(t.app, alice, image, { likes: true });
    await react(t.app, bob, image, { likes: true });
    const afterBob = await react(t.app, bob, image, { dislikes: true });

    expect(afterBob).toMatchObject({
      likes: [alice.user.id],
      dislikes: [bob.user.id],
      likeCount: 1,
      dislikeCount: 1,
    });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/gallery',
      query: { userId: owner.user.id },
      headers: asBearer(alice),
    });
    const found = listed
      .json<{ images: GalleryImage[] }>()
      .images.find((item) => item.id === image.id);
    expect(found).toMatchObject({
      likes: [alice.user.id],
      dislikes: [bob.user.id],
      likeCount: 1,
      dislikeCount: 1,
    });
  });

  it('reads the spec’s id arrays for the member asking alone', async () => {
    await react(t.app, bob, image, { likes: true });

    const updated = await react(t.app, alice, image, { likes: [alice.user.id] });

    expect(updated.likes.sort()).toEqual([alice.user.id, bob.user.id].sort());
    expect(await react(t.app, alice, image, { likes: [] })).toMatchObject({ likes: [bob.user.id] });
  });

  it('lets a member react by the image’s file path', async () => {
    const response = await patchImage(t.app, alice, image.url, { likes: true });

    expect(response.statusCode).toBe(200);
    expect(response.json<{ image: GalleryImage }>().image.likes).toEqual([alice.user.id]);
  });

  it('refuses a PATCH with nothing to change with 400', async () => {
    const response = await patchImage(t.app, alice, image.id, {});

    expect(response.statusCode).toBe(400);
  });

  it('tells the owner once about another member’s first like', async () => {
    await react(t.app, alice, image, { likes: true });

    const likes = await likeNotifications(t.app, owner);
    expect(likes).toHaveLength(1);
    expect(likes[0]?.actor).toMatchObject({ id: alice.user.id, username: alice.username });
    expect(await likeNotifications(t.app, alice)).toEqual([]);
  });

  it('does not tell the owner about liking their own image', async () => {
    await react(t.app, owner, image, { likes: true });

    expect(await likeNotifications(t.app, owner)).toEqual([]);
  });

  it('does not tell the owner again when a like is taken back and given again', async () => {
    await react(t.app, alice, image, { likes: true });
    await react(t.app, alice, image, { likes: false });
    await react(t.app, alice, image, { likes: true });
    await react(t.app, alice, image, { dislikes: true });
    await react(t.app, alice, image, { likes: true });

    expect(await likeNotifications(t.app, owner)).toHaveLength(1);
  });

  it('tells the owner about each member who likes, one notification each', async () => {
    await react(t.app, alice, image, { likes: true });
    await react(t.app, bob, image, { likes: true });

    const actors = (await likeNotifications(t.app, owner)).map((item) => item.actor?.id).sort();
    expect(actors).toEqual([alice.user.id, bob.user.id].sort());
  });

  it('does not notify for a dislike', async () => {
    await react(t.app, alice, image, { dislikes: true });

    expect(await likeNotifications(t.app, owner)).toEqual([]);
  });
});
