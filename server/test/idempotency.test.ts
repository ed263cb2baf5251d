/**
 * docs/decisions.md "Idempotency keys": every write marked `outbox` honours an Idempotency-Key.
 * The same call sent again gets the first answer and changes nothing; another call with the key
 * is a 422, one while the first still runs a 409; keys belong to their member and last 24 hours;
 * two nodes on one database agree. State is checked through the API.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { buildApp } from '../src/app.ts';
import { insertImage } from '../src/features/gallery/repository.ts';
import {
  ABANDONED_AFTER_MS,
  KEY_LIFETIME_MS,
  deleteExpiredKeys,
} from '../src/members/idempotencyKeys.ts';
import { IDEMPOTENCY_TEXTS } from '../src/plugins/idempotency.ts';
import {
  galleryState,
  jpegPart,
  listGallery,
  noisyImage,
  postUpload,
  uploadImage,
} from './gallery-helpers.ts';
import {
  type FilePart,
  type FriendAction,
  type Member,
  TARGET_FIELD,
  asBearer,
  expectError,
  forEachApp,
  friendAction,
  friendStatus,
  signupMembers,
} from './helpers.ts';

let sequence = 0;
const newKey = () => `key-${process.pid}-${(sequence += 1)}-${Math.random().toString(36).slice(2)}`;

function patch(
  app: FastifyInstance,
  member: Member,
  ref: string,
  body: Record<string, unknown>,
  key?: string,
) {
  return app.inject({
    method: 'PATCH',
    url: `/api/gallery/${encodeURIComponent(ref)}`,
    payload: body,
    headers: { ...asBearer(member), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

function friend(
  app: FastifyInstance,
  actor: Member,
  action: FriendAction,
  other: Member,
  key?: string,
) {
  return app.inject({
    method: 'POST',
    url: `/api/users/friends/${action}`,
    payload: { [TARGET_FIELD[action]]: other.user.id },
    headers: { ...asBearer(actor), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

const upload = (
  app: FastifyInstance,
  member: Member,
  file: FilePart,
  key?: string,
  fields: Record<string, string> = {},
) => postUpload(app, member, file, fields, key === undefined ? {} : { 'idempotency-key': key });

/** The same answer: status, body and content type. */
function expectSameAnswer(again: LightMyRequestResponse, first: LightMyRequestResponse): void {
  expect(again.statusCode).toBe(first.statusCode);
  expect(again.body).toBe(first.body);
  expect(again.headers['content-type']).toBe(first.headers['content-type']);
}

async function imageAs(app: FastifyInstance, viewer: Member, owner: Member, id: string) {
  const images = await listGallery(app, viewer, { userId: owner.user.id });
  const image = images.find((item) => item.id === id);
  if (!image) throw new Error(`image ${id} is not in the gallery`);
  return image;
}

/** Makes the key's row look as if its request were still running, started `ageMs` ago. */
async function holdRunning(app: FastifyInstance, member: Member, key: string, ageMs = 0) {
  await app.db
    .updateTable('idempotency_keys')
    .set({ status: null, body: null, created_at: new Date(Date.now() - ageMs).toISOString() })
    .where('member_id', '=', member.user.id)
    .where('key', '=', key)
    .execute();
}

async function ageKey(app: FastifyInstance, member: Member, key: string, ageMs: number) {
  await app.db
    .updateTable('idempotency_keys')
    .set({ created_at: new Date(Date.now() - ageMs).toISOString() })
    .where('member_id', '=', member.user.id)
    .where('key', '=', key)
    .execute();
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

  /** The key's photo row as stored, or undefined. */
  const keyedPhotos = (member: Member, key: string) =>
    t.app.db
      .selectFrom('gallery_images')
      .select(['id', 'idempotency_key'])
      .where('owner_id', '=', member.user.id)
      .where('idempotency_key', '=', key)
      .execute();

  it('answers the photo an upload made when its retry follows a run that died unanswered', async () => {
    const key = newKey();
    const file = await jpegPart(180, 120);
    const first = await upload(t.app, alice, file, key, { folder: 'Trips' });
    expect(first.statusCode).toBe(201);
    const made = first.json<{ image: GalleryImage }>().image;
    expect(await keyedPhotos(alice, key)).toEqual([{ id: made.id, idempotency_key: key }]);

    // The node died after the photo's commit and before the answer was stored: the key's row is
    // still running, and after five minutes it counts as abandoned.
    await holdRunning(t.app, alice, key, ABANDONED_AFTER_MS + 1_000);
    const before = await galleryState(t.app, t.config.uploadsDir);
    const retried = await upload(t.app, alice, file, key, { folder: 'Trips' });
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['content-type']).toBe(first.headers['content-type']);
    expect(retried.json()).toEqual(first.json());
    // Nothing new: no row, no picture, no file left behind in the incoming folder.
    expect(await galleryState(t.app, t.config.uploadsDir)).toEqual(before);
    expect((await listGallery(t.app, alice)).map((item) => item.id)).toEqual([made.id]);

    // The retry's answer is the key's answer from now on.
    expectSameAnswer(await upload(t.app, alice, file, key, { folder: 'Trips' }), retried);
    // It names the photo as it is now: a like given since shows.
    await holdRunning(t.app, alice, key, ABANDONED_AFTER_MS + 2_000);
    expect((await patch(t.app, bob, made.id, { likes: true })).statusCode).toBe(200);
    const later = await upload(t.app, alice, file, key, { folder: 'Trips' });
    expect(later.statusCode).toBe(201);
    expect(later.json<{ image: GalleryImage }>().image).toMatchObject({
      id: made.id,
      likes: [bob.user.id],
      likeCount: 1,
    });
    expect(await listGallery(t.app, alice)).toHaveLength(1);
  });

  it('keeps one photo when the abandoned run commits while its retry makes the pictures', async () => {
    const key = newKey();
    const file = await jpegPart(220, 140);
    const earlier = randomBytes(16).toString('hex');
    const before = await galleryState(t.app, t.config.uploadsDir);
    // While the retry makes its pictures, the run it took over (still alive after all) commits.
    const run = t.app.images.run.bind(t.app.images);
    const spy = vi.spyOn(t.app.images, 'run').mockImplementationOnce(async (job) => {
      const result = await run(job);
      await insertImage(t.app.db, {
        id: `earlier-${earlier}`,
        ownerId: alice.user.id,
        displayFile: `${earlier}.webp`,
        thumbFile: `${earlier}-thumb.webp`,
        width: 220,
        height: 140,
        bytes: 100,
        folder: 'All',
        createdAt: new Date().toISOString(),
        uploadKey: { key, since: new Date(Date.now() - KEY_LIFETIME_MS).toISOString() },
      });
      return result;
    });
    let answer: LightMyRequestResponse;
    try {
      answer = await upload(t.app, alice, file, key);
    } finally {
      spy.mockRestore();
    }
    expect(answer.statusCode).toBe(201);
    expect(answer.json<{ image: GalleryImage }>().image.id).toBe(`earlier-${earlier}`);
    // The retry's own pictures were removed again: the gallery's files are as they were.
    const after = await galleryState(t.app, t.config.uploadsDir);
    expect(after).toEqual({ ...before, rows: before.rows + 1 });
    expect((await listGallery(t.app, alice)).map((item) => item.id)).toEqual([
      `earlier-${earlier}`,
    ]);
  });

  it('makes a new photo with a key whose photo is older than the key’s lifetime', async () => {
    const key = newKey();
    const first = await upload(t.app, alice, await jpegPart(150, 100), key);
    expect(first.statusCode).toBe(201);
    const old = first.json<{ image: GalleryImage }>().image;
    await ageKey(t.app, alice, key, KEY_LIFETIME_MS + 1_000);
    await t.app.db
      .updateTable('gallery_images')
      .set({ created_at: new Date(Date.now() - KEY_LIFETIME_MS - 1_000).toISOString() })
      .where('id', '=', old.id)
      .execute();
    const fresh = await upload(t.app, alice, await jpegPart(151, 100), key);
    expect(fresh.statusCode).toBe(201);
    const made = fresh.json<{ image: GalleryImage }>().image;
    expect(made.id).not.toBe(old.id);
    expect((await listGallery(t.app, alice)).map((item) => item.id).sort()).toEqual(
      [old.id, made.id].sort(),
    );
    // The key now names the new photo alone.
    expect(await keyedPhotos(alice, key)).toEqual([{ id: made.id, idempotency_key: key }]);
  });

  it('answers a like sent again with its key as the first time, and changes nothing', async () => {
    const key = newKey();
    const first = await patch(t.app, alice, image.id, { likes: true }, key);
    expect(first.statusCode).toBe(200);
    expect(first.json<{ image: GalleryImage }>().image.likes).toEqual([alice.user.id]);

    // The member changes their mind in between; the late copy of the like must not undo it.
    expect((await patch(t.app, alice, image.id, { dislikes: true })).statusCode).toBe(200);
    const again = await patch(t.app, alice, image.id, { likes: true }, key);
    expectSameAnswer(again, first);
    const now = await imageAs(t.app, owner, owner, image.id);
    expect(now.likes).toEqual([]);
    expect(now.dislikes).toEqual([alice.user.id]);
  });

  it('answers a dislike and a caption sent again as the first time', async () => {
    const dislike = newKey();
    const first = await patch(t.app, alice, image.id, { dislikes: true }, dislike);
    expect(first.statusCode).toBe(200);
    await patch(t.app, alice, image.id, { dislikes: false });
    expectSameAnswer(await patch(t.app, alice, image.id, { dislikes: true }, dislike), first);
    expect((await imageAs(t.app, owner, owner, image.id)).dislikes).toEqual([]);

    const caption = newKey();
    const captioned = await patch(t.app, owner, image.id, { caption: 'Saturn at dusk' }, caption);
    expect(captioned.statusCode).toBe(200);
    await patch(t.app, owner, image.id, { caption: 'Rings' });
    expectSameAnswer(
      await patch(t.app, owner, image.id, { caption: 'Saturn at dusk' }, caption),
      captioned,
    );
    expect((await imageAs(t.app, owner, owner, image.id)).caption).toBe('Rings');
  });

  it('answers accept, decline and cancel sent again as the first time', async () => {
    // Accept: a late copy does not make friends again of a pair that parted since.
    await friendAction(t.app, alice, 'request', bob);
    const acceptKey = newKey();
    const accepted = await friend(t.app, bob, 'accept', alice, acceptKey);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ status: 'friends' });
    await friendAction(t.app, alice, 'unfriend', bob);
    await friendAction(t.app, alice, 'request', bob);
    expectSameAnswer(await friend(t.app, bob, 'accept', alice, acceptKey), accepted);
    expect(await friendStatus(t.app, alice, bob)).toBe('pending');

    // Decline: a late copy does not decline a request made again since.
    await friendAction(t.app, owner, 'request', bob);
    const declineKey = newKey();
    const declined = await friend(t.app, bob, 'decline', owner, declineKey);
    expect(declined.statusCode).toBe(200);
    await friendAction(t.app, owner, 'request', bob);
    expectSameAnswer(await friend(t.app, bob, 'decline', owner, declineKey), declined);
    expect(await friendStatus(t.app, bob, owner)).toBe('incoming');

    // Cancel: likewise.
    const cancelKey = newKey();
    const cancelled = await friend(t.app, owner, 'cancel', bob, cancelKey);
    expect(cancelled.statusCode).toBe(200);
    await friendAction(t.app, owner, 'request', bob);
    expectSameAnswer(await friend(t.app, owner, 'cancel', bob, cancelKey), cancelled);
    expect(await friendStatus(t.app, owner, bob)).toBe('pending');
  });

  it('keeps one photo for an upload sent twice with its key', async () => {
    const key = newKey();
    const file = await jpegPart(200, 150);
    const first = await upload(t.app, alice, file, key, { folder: 'Trips' });
    expect(first.statusCode).toBe(201);
    const again = await upload(t.app, alice, file, key, { folder: 'Trips' });
    expectSameAnswer(again, first);
    const images = await listGallery(t.app, alice);
    expect(images.map((item) => item.id)).toEqual([first.json<{ image: GalleryImage }>().image.id]);

    // Another file or another field with the same key is another call.
    expectError(
      await upload(t.app, alice, await jpegPart(201, 150), key, { folder: 'Trips' }),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );
    expectError(
      await upload(t.app, alice, file, key, { folder: 'Home' }),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );
    expect(await listGallery(t.app, alice)).toHaveLength(1);
  });

  it('keeps one photo when copies of an upload arrive at once', async () => {
    const key = newKey();
    const file = await jpegPart(640, 480);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => upload(t.app, alice, file, key)),
    );
    const done = answers.filter((answer) => answer.statusCode === 201);
    expect(done.length).toBeGreaterThan(0);
    for (const answer of answers) {
      if (answer.statusCode === 201) expectSameAnswer(answer, done[0] as LightMyRequestResponse);
      else expectError(answer, 409, IDEMPOTENCY_TEXTS.running);
    }
    expect(await listGallery(t.app, alice)).toHaveLength(1);
  });

  it('answers 409 to a copy sent while a large upload is still being made', async () => {
    const key = newKey();
    const file = {
      data: await noisyImage('jpeg', 3000, 2000),
      filename: 'large.jpg',
      type: 'image/jpeg',
    };
    const first = upload(t.app, alice, file, key);
    // The form has arrived and the pictures are being made: the key's row is running.
    await vi.waitFor(
      async () => {
        const row = await t.app.db
          .selectFrom('idempotency_keys')
          .select('status')
          .where('member_id', '=', alice.user.id)
          .where('key', '=', key)
          .executeTakeFirst();
        expect(row).toEqual({ status: null });
      },
      { timeout: 10_000, interval: 5 },
    );
    expectError(await upload(t.app, alice, file, key), 409, IDEMPOTENCY_TEXTS.running);
    const done = await first;
    expect(done.statusCode).toBe(201);
    expectSameAnswer(await upload(t.app, alice, file, key), done);
    expect(await listGallery(t.app, alice)).toHaveLength(1);
  });

  it('refuses the key for another call or another body with a 422', async () => {
    const key = newKey();
    expect((await patch(t.app, alice, image.id, { likes: true }, key)).statusCode).toBe(200);
    expectError(
      await patch(t.app, alice, image.id, { dislikes: true }, key),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );
    const other = await uploadImage(t.app, owner);
    expectError(
      await patch(t.app, alice, other.id, { likes: true }, key),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );
    await friendAction(t.app, bob, 'request', alice);
    expectError(await friend(t.app, alice, 'accept', bob, key), 422, IDEMPOTENCY_TEXTS.mismatch);
    // Nothing ran: the other image has no like and the request still waits.
    expect((await imageAs(t.app, owner, owner, other.id)).likes).toEqual([]);
    expect(await friendStatus(t.app, alice, bob)).toBe('incoming');
    // The same body with its fields in another order is the same call.
    const caption = newKey();
    const first = await patch(t.app, owner, image.id, { caption: 'A', folder: 'Space' }, caption);
    expect(first.statusCode).toBe(200);
    expectSameAnswer(
      await patch(t.app, owner, image.id, { folder: 'Space', caption: 'A' }, caption),
      first,
    );
  });

  it('answers 409 while the first request runs, and runs again once it was abandoned', async () => {
    const key = newKey();
    expect((await patch(t.app, alice, image.id, { likes: true }, key)).statusCode).toBe(200);
    await holdRunning(t.app, alice, key, ABANDONED_AFTER_MS - 60_000);
    expectError(
      await patch(t.app, alice, image.id, { likes: true }, key),
      409,
      IDEMPOTENCY_TEXTS.running,
    );
    // Another call with the running key is still another call.
    expectError(
      await patch(t.app, alice, image.id, { dislikes: true }, key),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );

    // A request running for more than five minutes died with its node: the key runs again.
    await patch(t.app, alice, image.id, { likes: false });
    await holdRunning(t.app, alice, key, ABANDONED_AFTER_MS + 1_000);
    const rerun = await patch(t.app, alice, image.id, { likes: true }, key);
    expect(rerun.statusCode).toBe(200);
    expect((await imageAs(t.app, owner, owner, image.id)).likes).toEqual([alice.user.id]);
    await patch(t.app, alice, image.id, { likes: false });
    expectSameAnswer(await patch(t.app, alice, image.id, { likes: true }, key), rerun);
  });

  it('keeps no server failure: the retry of a failed upload runs again', async () => {
    // The gallery's folder becomes a file, so the picture cannot be written (a 5xx).
    const folder = path.join(t.config.uploadsDir, 'gallery');
    const aside = `${folder}.aside`;
    const key = newKey();
    const file = await jpegPart(160, 120);
    await fs.rename(folder, aside);
    let failed: LightMyRequestResponse;
    try {
      await fs.writeFile(folder, 'not a folder');
      failed = await upload(t.app, alice, file, key);
    } finally {
      await fs.rm(folder, { force: true });
      await fs.rename(aside, folder);
    }
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    const retried = await upload(t.app, alice, file, key);
    expect(retried.statusCode).toBe(201);
    expectSameAnswer(await upload(t.app, alice, file, key), retried);
    expect(await listGallery(t.app, alice)).toHaveLength(1);
  });

  it('keeps a refusal: the retry gets the same refusal', async () => {
    const key = newKey();
    const refused = await friend(t.app, alice, 'accept', bob, key);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
    await friendAction(t.app, bob, 'request', alice);
    expectSameAnswer(await friend(t.app, alice, 'accept', bob, key), refused);
    expect(await friendStatus(t.app, alice, bob)).toBe('incoming');
  });

  it('keeps each member’s keys apart', async () => {
    const key = newKey();
    expect((await patch(t.app, alice, image.id, { likes: true }, key)).statusCode).toBe(200);
    const bobs = await patch(t.app, bob, image.id, { likes: true }, key);
    expect(bobs.statusCode).toBe(200);
    expect((await imageAs(t.app, owner, owner, image.id)).likes.sort()).toEqual(
      [alice.user.id, bob.user.id].sort(),
    );
    // Bob's key is bob's: another call with it is his own 422, and alice's is untouched.
    expectError(
      await patch(t.app, bob, image.id, { dislikes: true }, key),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );
  });

  it('forgets a key after 24 hours, and the sweep removes it', async () => {
    const key = newKey();
    expect((await patch(t.app, alice, image.id, { likes: true }, key)).statusCode).toBe(200);
    await patch(t.app, alice, image.id, { likes: false });
    await ageKey(t.app, alice, key, KEY_LIFETIME_MS - 60_000);
    await patch(t.app, alice, image.id, { likes: true }, key);
    expect((await imageAs(t.app, owner, owner, image.id)).likes).toEqual([]);

    await ageKey(t.app, alice, key, KEY_LIFETIME_MS + 1_000);
    // A new key now: even another call may use it.
    const fresh = await patch(t.app, alice, image.id, { dislikes: true }, key);
    expect(fresh.statusCode).toBe(200);
    expect((await imageAs(t.app, owner, owner, image.id)).dislikes).toEqual([alice.user.id]);

    const old = newKey();
    await patch(t.app, bob, image.id, { likes: true }, old);
    await ageKey(t.app, bob, old, KEY_LIFETIME_MS + 1_000);
    expect(await deleteExpiredKeys(t.app.db, Date.now())).toBeGreaterThanOrEqual(1);
    const left = await t.app.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', 'in', [key, old])
      .execute();
    expect(left.map((row) => row.key)).toEqual([key]);
  });

  it('refuses a malformed key with a 400 and runs nothing; a quoted key is the same key', async () => {
    for (const bad of ['', 'has space', 'x'.repeat(256), 'naïve']) {
      const answer = await t.app.inject({
        method: 'PATCH',
        url: `/api/gallery/${image.id}`,
        payload: { likes: true },
        headers: { ...asBearer(alice), 'idempotency-key': bad },
      });
      expectError(answer, 400, IDEMPOTENCY_TEXTS.invalid);
    }
    expect((await imageAs(t.app, owner, owner, image.id)).likes).toEqual([]);
    const key = newKey();
    const first = await patch(t.app, alice, image.id, { likes: true }, `"${key}"`);
    expect(first.statusCode).toBe(200);
    await patch(t.app, alice, image.id, { likes: false });
    expectSameAnswer(await patch(t.app, alice, image.id, { likes: true }, key), first);
    expect((await imageAs(t.app, owner, owner, image.id)).likes).toEqual([]);
  });

  it('behaves as before without the header, and ignores it on other writes', async () => {
    expect((await patch(t.app, alice, image.id, { likes: true })).statusCode).toBe(200);
    expect((await patch(t.app, alice, image.id, { likes: false })).statusCode).toBe(200);
    expect((await imageAs(t.app, owner, owner, image.id)).likes).toEqual([]);
    const key = newKey();
    // Unfriend is not an outbox write: the key is not looked at, and each call runs.
    await friendAction(t.app, alice, 'request', bob);
    await friendAction(t.app, bob, 'accept', alice);
    expect((await friend(t.app, alice, 'unfriend', bob, key)).statusCode).toBe(200);
    await friendAction(t.app, alice, 'request', bob);
    await friendAction(t.app, bob, 'accept', alice);
    expect((await friend(t.app, alice, 'unfriend', bob, key)).statusCode).toBe(200);
    expect(await friendStatus(t.app, alice, bob)).toBe('none');
    const rows = await t.app.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('key', '=', key)
      .execute();
    expect(rows).toEqual([]);
  });

  describe2Nodes(t);
});

/** A second node on the same database: it opens its own connection from the same settings. */
function describe2Nodes(t: { app: FastifyInstance; config: Parameters<typeof buildApp>[0] }) {
  let second: FastifyInstance;
  beforeAll(async () => {
    second = await buildApp(t.config);
    await second.ready();
  });
  afterAll(async () => {
    await second.close();
  });

  it('agrees across two nodes on one database', async () => {
    const [owner, alice] = await signupMembers(t.app, 2);
    const image = await uploadImage(t.app, owner);
    const key = newKey();
    const first = await patch(t.app, alice, image.id, { likes: true }, key);
    expect(first.statusCode).toBe(200);
    await patch(second, alice, image.id, { likes: false });
    expectSameAnswer(await patch(second, alice, image.id, { likes: true }, key), first);
    expect((await imageAs(second, owner, owner, image.id)).likes).toEqual([]);
    expectError(
      await patch(second, alice, image.id, { dislikes: true }, key),
      422,
      IDEMPOTENCY_TEXTS.mismatch,
    );

    // The same upload reaching both nodes at once leaves one photo.
    const uploadKey = newKey();
    const file = await jpegPart(640, 480);
    const answers = await Promise.all([
      upload(t.app, alice, file, uploadKey),
      upload(second, alice, file, uploadKey),
    ]);
    const done = answers.filter((answer) => answer.statusCode === 201);
    expect(done.length).toBeGreaterThan(0);
    for (const answer of answers) {
      if (answer.statusCode === 201) expectSameAnswer(answer, done[0] as LightMyRequestResponse);
      else expectError(answer, 409, IDEMPOTENCY_TEXTS.running);
    }
    expect(await listGallery(second, alice)).toHaveLength(1);
  });
}
