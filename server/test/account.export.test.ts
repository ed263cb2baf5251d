/**
 * Downloading one's data (docs/product.md "Leaving"): a zip of the member's own records and
 * pictures, unzipped here for real and read file by file; one download per ten minutes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { EXPORT_INTERVAL_MS, EXPORT_TOO_SOON } from '../../src/contracts/safety.ts';
import type { User } from '../../src/contracts/user.ts';
import { pairKey } from '../../src/contracts/friends.ts';
import { type Neighbourhood, insertReport, neighbourhood } from './account-helpers.ts';
import { listGallery, patchImage, reorder, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  asBearer,
  asCookie,
  forEachApp,
  getMe,
  signupPair,
  signupUser,
  uniqueUsername,
  getNotifications,
  patchProfile,
} from './helpers.ts';
import { block, unblock } from './safety-helpers.ts';
import { type UnzippedEntry, unzipByName } from './unzip.ts';

const download = (app: Parameters<typeof getMe>[0], headers: Record<string, string>, url = '') =>
  app.inject({ method: 'GET', url: `/api/auth/export${url}`, headers });

forEachApp((t) => {
  const json = <T>(files: Map<string, UnzippedEntry>, name: string): T => {
    const file = files.get(name);
    if (!file) throw new Error(`no ${name} in the archive`);
    return JSON.parse(file.data.toString('utf8')) as T;
  };

  describe('the archive', () => {
    let n: Neighbourhood;
    let response: Awaited<ReturnType<typeof download>>;
    let files: Map<string, UnzippedEntry>;
    let me: User;

    beforeAll(async () => {
      n = await neighbourhood(t.app);
      // The saved order: the older photo first.
      await reorder(t.app, n.leaver, [n.leaverPhotos[0]!.id, n.leaverPhotos[1]!.id]);
      me = (await getMe(t.app, asBearer(n.leaver))).json<{ user: User }>().user;
      response = await download(t.app, asCookie(n.leaver));
      files = unzipByName(response.rawPayload);
    });

    it('comes as a zip attachment named after the member that no cache keeps', () => {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/zip');
      expect(response.headers['content-disposition']).toBe(
        `attachment; filename="orbit-${n.leaver.username}.zip"`,
      );
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['content-encoding']).toBeUndefined();
    });

    it('holds exactly the files the README explains', () => {
      expect([...files.keys()]).toEqual([
        'README.txt',
        'avatar.webp',
        'profile.json',
        'friends.json',
        'notifications.json',
        'reactions.json',
        'reports.json',
        'blocks.json',
        'photos/0001.webp',
        'photos/0002.webp',
        'photos.json',
      ]);
      const readme = files.get('README.txt')?.data.toString('utf8') ?? '';
      for (const name of files.keys()) {
        const explained = name.startsWith('photos/') ? 'photos/' : name;
        expect(readme, name).toContain(`\n${explained}\n`);
      }
    });

    it('holds the profile as the member sees it, with the account’s dates and no secret', () => {
      const profile = json<{ member: User; account: Record<string, string>; avatar: string }>(
        files,
        'profile.json',
      );

      expect(profile.member).toEqual(me);
      expect(profile.account).toEqual({
        createdAt: me.createdAt,
        updatedAt: expect.any(String) as string,
        downloadedAt: expect.any(String) as string,
      });
      expect(profile.avatar).toBe('avatar.webp');
      expect(files.get('profile.json')?.data.toString('utf8')).not.toMatch(/argon2|hash/i);
    });

    it('holds the avatar as a picture', async () => {
      const avatar = await sharp(files.get('avatar.webp')?.data).metadata();

      expect(avatar.format).toBe('webp');
    });

    it('holds the friends and the requests both ways, with usernames and dates', () => {
      const friends = json<Record<string, { id: string; username: string }[]>>(
        files,
        'friends.json',
      );
      const named = (list: { username: string }[] | undefined) =>
        (list ?? []).map((item) => item.username).sort();

      expect(named(friends.friends)).toEqual(
        [n.friendAsked.username, n.friendAnswered.username].sort(),
      );
      expect(friends.incoming).toEqual([
        {
          id: n.askingLeaver.user.id,
          username: n.askingLeaver.username,
          sentAt: expect.any(String) as string,
        },
      ]);
      expect(friends.outgoing).toEqual([
        {
          id: n.askedByLeaver.user.id,
          username: n.askedByLeaver.username,
          sentAt: expect.any(String) as string,
        },
      ]);
      expect(friends.friends?.every((friend) => 'since' in friend)).toBe(true);
    });

    it('holds the member’s notifications, oldest first, with whom each came from', async () => {
      const { notifications } = json<{ notifications: { text: string; from: string | null }[] }>(
        files,
        'notifications.json',
      );
      const page = await getNotifications(t.app, asBearer(n.leaver));

      expect(notifications).toHaveLength(
        page.json<{ notifications: unknown[] }>().notifications.length,
      );
      expect(notifications.map((item) => item.text)).toEqual([
        'Welcome to Orbit!',
        `@${n.friendAsked.username} accepted your friend request`,
        `@${n.friendAnswered.username} sent you a friend request`,
        `@${n.askingLeaver.username} sent you a friend request`,
        `@${n.friendAsked.username} liked your photo`,
      ]);
    });

    it('holds the reactions the member gave and those their photos received', () => {
      const reactions = json<{
        given: { imageId: string; owner: string; kind: string }[];
        received: { imageId: string; by: string; kind: string }[];
      }>(files, 'reactions.json');
      const pick = (list: { imageId: string; kind: string }[], who: (item: never) => string) =>
        list.map((item) => `${item.imageId} ${who(item as never)} ${item.kind}`).sort();

      // The leaver blocked the bystander: their photo's owner is not named, their dislike not kept.
      expect(pick(reactions.given, (item: { owner: string }) => item.owner)).toEqual(
        [
          `${n.friendPhoto.id} ${n.friendAsked.username} like`,
          `${n.bystanderPhoto.id} null dislike`,
        ].sort(),
      );
      expect(pick(reactions.received, (item: { by: string }) => item.by)).toEqual([
        `${n.leaverPhotos[0]!.id} ${n.friendAsked.username} like`,
      ]);
    });

    it('holds the reports the member made and none made about them', () => {
      const { reports } = json<{ reports: Record<string, unknown>[] }>(files, 'reports.json');

      // Both members reported are hidden by a block (one blocked the leaver, the leaver the other).
      expect(reports).toEqual([
        expect.objectContaining({
          kind: 'member',
          target: { memberId: n.otherBystander.user.id, username: null },
          reason: 'Spam',
          note: 'made by the leaver',
          status: 'open',
        }),
        expect.objectContaining({
          kind: 'photo',
          target: { photoId: n.bystanderPhoto.id, owner: null },
        }),
      ]);
    });

    it('holds the members the member blocked, and not who blocked them', () => {
      expect(json(files, 'blocks.json')).toEqual({
        blocked: [
          {
            id: n.bystander.user.id,
            username: n.bystander.username,
            blockedAt: expect.any(String) as string,
          },
        ],
      });
    });

    it('holds every photo at display size, numbered in gallery order, indexed with folder and caption', async () => {
      const gallery = await listGallery(t.app, n.leaver);
      const { photos } = json<{ photos: Record<string, unknown>[] }>(files, 'photos.json');

      expect(photos).toEqual(
        gallery.map((image, index) => ({
          file: `photos/000${index + 1}.webp`,
          id: image.id,
          folder: image.folder,
          caption: image.caption,
          width: image.width,
          height: image.height,
          uploadedAt: image.createdAt,
        })),
      );
      expect(photos.map((photo) => photo.caption)).toEqual(['Saturn at dusk', '']);
      expect(photos.map((photo) => photo.folder)).toEqual(['Trips', 'All']);
      for (const [index, image] of gallery.entries()) {
        const picture = await sharp(files.get(`photos/000${index + 1}.webp`)?.data).metadata();
        expect(picture).toMatchObject({ format: 'webp', width: image.width, height: image.height });
      }
    });

    it('stores the pictures as they are and compresses the text', () => {
      expect(files.get('photos/0001.webp')?.compressed).toBe(false);
      expect(files.get('avatar.webp')?.compressed).toBe(false);
      expect(files.get('profile.json')?.compressed).toBe(true);
    });
  });

  describe('what a block hides', () => {
    /**
     * `me` and `other` with something of each other in every list: a like of each other's photo
     * (and its notification), a report, and a friendship left behind as if made in the moment of
     * the block.
     */
    const entangled = async () => {
      const [me, other] = await signupPair(t.app);
      const mine = await uploadImage(t.app, me);
      const theirs = await uploadImage(t.app, other);
      await patchImage(t.app, other, mine.id, { likes: true });
      await patchImage(t.app, me, theirs.id, { likes: true });
      await insertReport(t.app, me, { kind: 'member', member: other });
      await insertReport(t.app, me, { kind: 'image', image: theirs });
      return { me, other, theirs };
    };
    const rename = async (member: Member) => {
      const username = uniqueUsername('fled');
      const response = await patchProfile(t.app, asCookie(member), { username });
      expect(response.statusCode).toBe(200);
      return username;
    };
    /** Every JSON file of the archive as text, but those `except` names. */
    const text = (files: Map<string, UnzippedEntry>, except: string[] = []) =>
      [...files]
        .filter(([name]) => name.endsWith('.json') && !except.includes(name))
        .map(([name, file]) => `${name}: ${file.data.toString('utf8')}`)
        .join('\n');

    it.each(['the member', 'the other'] as const)(
      'names the other in no file but blocks.json when %s blocked, and never by a later name',
      async (blocker) => {
        const { me, other, theirs } = await entangled();
        if (blocker === 'the member') await block(t.app, me, other);
        else await block(t.app, other, me);
        // A friendship the block did not end, as one written in the moment of it would be.
        await t.app.db
          .insertInto('friendships')
          .values({
            pair_key: pairKey(me.user.id, other.user.id),
            requester_id: other.user.id,
            addressee_id: me.user.id,
            status: 'accepted',
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .execute();
        const renamed = await rename(other);

        const files = unzipByName((await download(t.app, asBearer(me))).rawPayload);

        expect(text(files)).not.toContain(renamed);
        expect(text(files, ['blocks.json'])).not.toContain(other.username);
        expect(json(files, 'friends.json')).toEqual({ friends: [], incoming: [], outgoing: [] });
        const { notifications } = json<{ notifications: { text: string }[] }>(
          files,
          'notifications.json',
        );
        expect(notifications.map((item) => item.text)).toEqual(['Welcome to Orbit!']);
        expect(json(files, 'reactions.json')).toEqual({
          given: [
            { imageId: theirs.id, owner: null, kind: 'like', at: expect.any(String) as unknown },
          ],
          received: [],
        });
        const { reports } = json<{ reports: { target: unknown }[] }>(files, 'reports.json');
        expect(reports.map((item) => item.target)).toEqual([
          { memberId: other.user.id, username: null },
          { photoId: theirs.id, owner: null },
        ]);
        expect(json<{ blocked: unknown[] }>(files, 'blocks.json').blocked).toEqual(
          blocker === 'the member'
            ? [
                {
                  id: other.user.id,
                  username: other.username,
                  blockedAt: expect.any(String) as unknown,
                },
              ]
            : [],
        );
      },
    );

    it('shows it all again, by the name of now, once the block is lifted', async () => {
      const { me, other, theirs } = await entangled();
      await block(t.app, me, other);
      const renamed = await rename(other);
      await unblock(t.app, me, other);

      const files = unzipByName((await download(t.app, asBearer(me))).rawPayload);

      const { notifications } = json<{ notifications: { text: string }[] }>(
        files,
        'notifications.json',
      );
      expect(notifications.map((item) => item.text)).toContain(`@${renamed} liked your photo`);
      expect(json(files, 'reactions.json')).toMatchObject({
        given: [{ imageId: theirs.id, owner: renamed }],
        received: [{ by: renamed }],
      });
      const { reports } = json<{ reports: { target: unknown }[] }>(files, 'reports.json');
      expect(reports.map((item) => item.target)).toEqual([
        { memberId: other.user.id, username: renamed },
        { photoId: theirs.id, owner: renamed },
      ]);
    });
  });

  describe('whose data', () => {
    it('answers 401 without a session', async () => {
      const response = await download(t.app, {});

      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Please sign in.' });
    });

    it('is always the signed-in member’s, whatever the query names', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];

      const response = await download(
        t.app,
        asBearer(member),
        `?userId=${other.user.id}&username=${other.username}`,
      );

      const profile = json<{ member: { id: string } }>(
        unzipByName(response.rawPayload),
        'profile.json',
      );
      expect(profile.member.id).toBe(member.user.id);
    });

    it('holds nothing of another member’s photos or notifications', async () => {
      const n = await neighbourhood(t.app);

      const files = unzipByName((await download(t.app, asBearer(n.friendAsked))).rawPayload);

      expect([...files.keys()].filter((name) => name.startsWith('photos/'))).toEqual([
        'photos/0001.webp',
      ]);
      expect(json<{ photos: { id: string }[] }>(files, 'photos.json').photos).toEqual([
        expect.objectContaining({ id: n.friendPhoto.id }),
      ]);
      const { notifications } = json<{ notifications: { text: string }[] }>(
        files,
        'notifications.json',
      );
      expect(notifications.map((item) => item.text)).toEqual([
        'Welcome to Orbit!',
        `@${n.leaver.username} sent you a friend request`,
        `@${n.leaver.username} liked your photo`,
      ]);
      expect(json(files, 'reports.json')).toEqual({ reports: [] });
    });
  });

  describe('one download per ten minutes', () => {
    it(`answers 429 "${EXPORT_TOO_SOON}" with Retry-After to a second one`, async () => {
      const member = await signupUser(t.app);
      expect((await download(t.app, asBearer(member))).statusCode).toBe(200);

      const again = await download(t.app, asBearer(member));

      expect(again.statusCode).toBe(429);
      expect(again.json()).toEqual({ error: EXPORT_TOO_SOON });
      const retryAfter = Number(again.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(EXPORT_INTERVAL_MS / 1000 - 30);
      expect(retryAfter).toBeLessThanOrEqual(EXPORT_INTERVAL_MS / 1000);
    });

    it('lets the member download again once ten minutes passed', async () => {
      const member = await signupUser(t.app);
      expect((await download(t.app, asBearer(member))).statusCode).toBe(200);
      await t.app.db
        .updateTable('users')
        .set({ last_export_at: new Date(Date.now() - EXPORT_INTERVAL_MS - 1_000).toISOString() })
        .where('id', '=', member.user.id)
        .execute();

      expect((await download(t.app, asBearer(member))).statusCode).toBe(200);
    });

    it('says how long is left: a download nine minutes ago leaves about a minute', async () => {
      const member = await signupUser(t.app);
      await t.app.db
        .updateTable('users')
        .set({ last_export_at: new Date(Date.now() - 9 * 60_000).toISOString() })
        .where('id', '=', member.user.id)
        .execute();

      const again = await download(t.app, asBearer(member));

      expect(again.statusCode).toBe(429);
      expect(Number(again.headers['retry-after'])).toBeGreaterThanOrEqual(59);
      expect(Number(again.headers['retry-after'])).toBeLessThanOrEqual(61);
    });

    it('lets one of two downloads started at once through', async () => {
      const member = await signupUser(t.app);

      const statuses = (
        await Promise.all([download(t.app, asBearer(member)), download(t.app, asBearer(member))])
      ).map((response) => response.statusCode);

      expect(statuses.sort()).toEqual([200, 429]);
    });

    it('counts per member: another member downloads meanwhile', async () => {
      const [member, other] = [await signupUser(t.app), await signupUser(t.app)];
      expect((await download(t.app, asBearer(member))).statusCode).toBe(200);

      expect((await download(t.app, asBearer(other))).statusCode).toBe(200);
    });

    it('is not started by a HEAD request', async () => {
      const member = await signupUser(t.app);

      const head = await t.app.inject({
        method: 'HEAD',
        url: '/api/auth/export',
        headers: asBearer(member),
      });

      expect(head.statusCode).toBe(404);
      expect((await download(t.app, asBearer(member))).statusCode).toBe(200);
    });
  });
});
