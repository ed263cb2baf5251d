/**
 * MEDIA_PUBLIC_URL: every picture URL the API hands out (gallery pictures and thumbnails,
 * avatars wherever a member appears) is `${MEDIA_PUBLIC_URL}/<key>`, while /uploads/<key> keeps
 * serving the same picture for whatever sits behind that URL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendListResponse, SearchResult } from '../../src/contracts/friends.ts';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import type { NotificationPage } from '../../src/contracts/notifications.ts';
import type { User } from '../../src/contracts/user.ts';
import { listGallery, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  asBearer,
  forEachDialect,
  friendAction,
  getMe,
  useTestApp,
  signupPair,
} from './helpers.ts';

const PUBLIC = 'https://media.orbit.test/pictures';
const AVATAR = new RegExp(`^${PUBLIC.replace(/\./g, '\\.')}/avatars/[0-9a-f]{32}\\.webp$`);
const PICTURE = new RegExp(`^${PUBLIC.replace(/\./g, '\\.')}/gallery/[0-9a-f]{32}\\.webp$`);
const THUMB = new RegExp(`^${PUBLIC.replace(/\./g, '\\.')}/gallery/[0-9a-f]{32}-thumb\\.webp$`);

forEachDialect((dialect) => {
  describe('with MEDIA_PUBLIC_URL set', () => {
    // A trailing slash is dropped, so URLs never hold two.
    const t = useTestApp(dialect, { MEDIA_PUBLIC_URL: `${PUBLIC}/` });
    let alice: Member;
    let bob: Member;
    let image: GalleryImage;

    beforeAll(async () => {
      [alice, bob] = await signupPair(t.app);
      image = await uploadImage(t.app, alice);
    });

    const getJson = async <T>(url: string, member: Member): Promise<T> => {
      const response = await t.app.inject({ method: 'GET', url, headers: asBearer(member) });
      if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode}`);
      return response.json<T>();
    };

    it('hands out an upload’s picture and thumbnail under it', () => {
      for (const url of [image.url, image.url, image.url, image.url]) expect(url).toMatch(PICTURE);
      expect(image.thumbnailUrl).toMatch(THUMB);
      expect(image.owner.profileImage).toMatch(AVATAR);
    });

    it('hands out gallery lists with pictures under it', async () => {
      const [listed] = await listGallery(t.app, bob, { userId: alice.user.id });

      expect(listed?.url).toBe(image.url);
      expect(listed?.thumbnailUrl).toBe(image.thumbnailUrl);
    });

    it('hands out the member’s avatar under it at signup and from /api/auth/me', async () => {
      expect(alice.user.profileImage).toMatch(AVATAR);

      const me = (await getMe(t.app, asBearer(alice))).json<{ user: User }>().user;

      expect(me.profileImage).toBe(alice.user.profileImage);
    });

    it('hands out a profile’s avatar under it', async () => {
      const { user } = await getJson<{ user: User }>(`/api/users/profile/${alice.username}`, bob);

      expect(user.profileImage).toBe(alice.user.profileImage);
    });

    it('hands out the actor’s avatar under it in notifications', async () => {
      expect((await friendAction(t.app, alice, 'request', bob)).statusCode).toBe(200);

      const page = await getJson<NotificationPage>('/api/notifications', bob);

      const request = page.notifications.find((item) => item.type === 'friend_request');
      expect(request?.actor?.profileImage).toBe(alice.user.profileImage);
    });

    it('hands out avatars under it in friend requests and search results', async () => {
      const incoming = await getJson<FriendListResponse>('/api/users/friends/incoming', bob);
      const search = await getJson<{ users: SearchResult[] }>(
        `/api/users/search?q=${encodeURIComponent(alice.username)}`,
        bob,
      );

      expect(incoming.results[0]?.user.profileImage).toBe(alice.user.profileImage);
      expect(search.users.find((user) => user.id === alice.user.id)?.profileImage).toBe(
        alice.user.profileImage,
      );
    });

    it('still serves the picture at /uploads/<key> for the server behind that URL', async () => {
      const key = image.thumbnailUrl.slice(PUBLIC.length + 1);

      const response = await t.app.inject({ method: 'GET', url: `/uploads/${key}` });

      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
    });
  });

  describe('the page served with MEDIA_PUBLIC_URL set', () => {
    const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-static-'));
    fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Orbit</title>');
    afterAll(() => fs.rmSync(staticDir, { recursive: true, force: true }));
    const t = useTestApp(dialect, { MEDIA_PUBLIC_URL: PUBLIC, STATIC_DIR: staticDir });

    it('lets the page load pictures from that origin, and from nowhere else new', async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/',
        headers: { accept: 'text/html' },
      });

      const policy = String(response.headers['content-security-policy']);
      expect(policy).toContain("img-src 'self' data: blob: https://media.orbit.test;");
      expect(policy).toContain("default-src 'self'");
    });
  });
});
