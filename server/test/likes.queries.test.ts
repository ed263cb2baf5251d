/**
 * A like costs at most three statements (docs/decisions.md "A like in a few statements"): counted
 * from the route's start, the session lookup that authenticates the call left out, transaction
 * control included. A first like of someone else's photo also writes the owner's notification,
 * counted on its own. The live gallery:image:updated event is the answer without the ids of who
 * reacted, and the watcher who reacted hears its own reaction.
 */
import type { Socket } from 'socket.io-client';
import { beforeAll, beforeEach, expect, it } from 'vitest';
import type { GalleryImage, GalleryImageLive } from '../../src/contracts/gallery.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import { type Member, forEachDialect, signupMembers, getNotifications } from './helpers.ts';
import { useCountedLiveApp } from './live-app.ts';
import { type CountedStatement, afterAuthentication, touching } from './queryCounter.ts';
import { nextEvent } from './sockets.ts';

forEachDialect((dialect) => {
  const { t, counter, connectAs } = useCountedLiveApp(dialect);
  let owner: Member;
  let alice: Member;
  let image: GalleryImage;
  let watcher: Socket;

  beforeAll(async () => {
    [owner, alice] = await signupMembers(t.app, 2);
    image = await uploadImage(t.app, owner);
  });
  // Sockets are closed after each test (useSockets), so each test watches anew.
  beforeEach(async () => {
    watcher = await connectAs(alice);
    const ack = (await watcher
      .timeout(5_000)
      .emitWithAck('gallery:join', { ownerId: owner.user.id })) as { ok: boolean };
    expect(ack.ok).toBe(true);
  });

  const nextUpdate = () => nextEvent<GalleryImageLive>(watcher, 'gallery:image:updated');

  /** The answer as the watcher hears it: counts, no ids, and its own reaction when it reacted. */
  const asHeard = (image: GalleryImage, reactor: Member) => {
    const { likes, dislikes, ...heard } = image;
    if (reactor !== alice) return heard;
    const me = alice.user.id;
    const myReaction = likes.includes(me) ? 'like' : dislikes.includes(me) ? 'dislike' : null;
    return { ...heard, myReaction };
  };

  /** PATCHes as `member`; answers the image, the event and the statements the call sent. */
  async function react(member: Member, body: Record<string, unknown>) {
    const event = nextUpdate();
    const { result: response, statements } = await counter.during(() =>
      patchImage(t.app, member, image.id, body),
    );
    expect(response.statusCode, response.body).toBe(200);
    const answered = response.json<{ image: GalleryImage }>().image;
    expect(await event).toEqual(asHeard(answered, member));
    const counted = afterAuthentication(statements);
    const notifying = touching(counted, 'notifications');
    const reacting = counted.filter((statement) => !notifying.includes(statement));
    return { image: answered, reacting, notifying, all: statements };
  }

  const sqlOf = (statements: CountedStatement[]) => statements.map((s) => s.sql).join('\n');

  it('likes, changes to a dislike and takes it back on another member’s photo in ≤ 3 statements each', async () => {
    const liked = await react(alice, { likes: true });
    expect(liked.reacting.length, sqlOf(liked.reacting)).toBeLessThanOrEqual(3);
    // The first like tells the owner: one statement more, that checks for an earlier one itself.
    expect(liked.notifying.length, sqlOf(liked.notifying)).toBe(1);
    expect(liked.image).toMatchObject({
      id: image.id,
      url: image.url,
      likes: [alice.user.id],
      dislikes: [],
      owner: { id: owner.user.id, username: owner.username },
    });
    // The session lookup is the only statement left out: one, or none when the node remembered
    // the session (docs/decisions.md "Session cache").
    const leftOut = liked.all.filter(
      (statement) => !liked.reacting.includes(statement) && !liked.notifying.includes(statement),
    );
    expect(leftOut.length).toBeLessThanOrEqual(1);
    expect(leftOut.filter((statement) => !/from "sessions"/i.test(statement.sql))).toEqual([]);

    const disliked = await react(alice, { dislikes: true });
    expect(disliked.reacting.length, sqlOf(disliked.reacting)).toBeLessThanOrEqual(3);
    expect(disliked.notifying).toEqual([]);
    expect(disliked.image).toMatchObject({ likes: [], dislikes: [alice.user.id] });

    const removed = await react(alice, { dislikes: false });
    expect(removed.reacting.length, sqlOf(removed.reacting)).toBeLessThanOrEqual(3);
    expect(removed.image).toMatchObject({ likes: [], dislikes: [] });

    // Liked again: not news, so no notification statement at all.
    const again = await react(alice, { likes: true });
    expect(again.reacting.length, sqlOf(again.reacting)).toBeLessThanOrEqual(3);
    expect(again.notifying.length).toBeLessThanOrEqual(1);
    expect(again.image).toMatchObject({ likes: [alice.user.id], dislikes: [] });

    const unchanged = await react(alice, { likes: true });
    expect(unchanged.reacting.length, sqlOf(unchanged.reacting)).toBeLessThanOrEqual(3);
    expect(unchanged.notifying).toEqual([]);
    expect(unchanged.image).toMatchObject({ likes: [alice.user.id], dislikes: [] });

    const notifications = await getNotifications(t.app, { authorization: `Bearer ${owner.token}` });
    const likes = notifications
      .json<{ notifications: { type: string }[] }>()
      .notifications.filter((item) => item.type === 'like');
    expect(likes).toHaveLength(1);

    await react(alice, { likes: false });
  });

  it('likes, dislikes and takes back a reaction to one’s own photo in ≤ 3 statements each, telling no one', async () => {
    for (const [body, likes, dislikes] of [
      [{ likes: true }, [owner.user.id], []],
      [{ dislikes: true }, [], [owner.user.id]],
      [{ likes: true }, [owner.user.id], []],
      [{ likes: false }, [], []],
    ] as const) {
      const done = await react(owner, body);
      expect(done.reacting.length, sqlOf(done.reacting)).toBeLessThanOrEqual(3);
      expect(done.notifying).toEqual([]);
      expect(done.image).toMatchObject({ likes, dislikes });
    }
  });

  it('answers 404 to a reaction on no image, in two statements', async () => {
    const { result: response, statements } = await counter.during(() =>
      patchImage(t.app, alice, 'no-such-image', { likes: true }),
    );
    expect(response.statusCode).toBe(404);
    expect(afterAuthentication(statements).length).toBeLessThanOrEqual(2);
  });
});
