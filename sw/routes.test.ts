import { describe, expect, it } from 'vitest';
import { NAVIGATION_DENYLIST, isSavedApiCall, isSavedMedia } from './routes.ts';

const ORIGIN = 'https://orbit.test';
const at = (path: string, origin = ORIGIN) => new URL(path, origin);
const denied = (path: string) => NAVIGATION_DENYLIST.some((rule) => rule.test(path));

describe('navigations', () => {
  it('leave the API, uploads and the socket to the server', () => {
    expect(denied('/api/auth/me')).toBe(true);
    expect(denied('/uploads/gallery/a.webp')).toBe(true);
    expect(denied('/socket.io/')).toBe(true);
  });

  it('give every app route the shell, including ones that only start like a denied path', () => {
    for (const path of ['/', '/spacehub', '/settings', '/profile/other', '/apiary', '/uploader']) {
      expect(denied(path)).toBe(false);
    }
  });
});

describe('saved API calls', () => {
  it('are the calls of app start, the profile page and the notifications', () => {
    for (const path of [
      '/api/auth/me',
      '/api/users/profile/alice',
      '/api/gallery?userId=1&username=alice',
      '/api/gallery?userId=1&username=alice&folder=Trips',
      '/api/gallery/folders?userId=1',
      '/api/users/friends/status?userId=1',
      '/api/users/friends/list?username=alice',
      '/api/users/friends/counts',
      '/api/users/friends/incoming',
      '/api/users/friends/outgoing',
      '/api/notifications',
    ]) {
      expect(isSavedApiCall(at(path), ORIGIN), path).toBe(true);
    }
  });

  it('leave out later gallery pages, everything else and other origins', () => {
    for (const path of [
      '/api/auth/token-bridge',
      '/api/users/search?q=al',
      '/api/gallery/123',
      '/api/gallery?userId=1&username=alice&cursor=abc',
      '/api/gallery?userId=1&username=alice&limit=200&cursor=abc',
      '/api/gallery?userId=1&limit=60',
      '/api/notifications/read',
      '/api/push/vapid-public-key',
    ]) {
      expect(isSavedApiCall(at(path), ORIGIN), path).toBe(false);
    }
    expect(isSavedApiCall(at('/api/auth/me', 'https://elsewhere.test'), ORIGIN)).toBe(false);
  });
});

describe('saved media', () => {
  it('are gallery thumbnails and avatars', () => {
    expect(isSavedMedia(at('/uploads/gallery/0a1b-thumb.webp'), ORIGIN)).toBe(true);
    expect(isSavedMedia(at('/uploads/avatars/0a1b.webp?v=3'), ORIGIN)).toBe(true);
  });

  it('leave display-size images and other origins to the network', () => {
    expect(isSavedMedia(at('/uploads/gallery/0a1b.webp'), ORIGIN)).toBe(false);
    expect(isSavedMedia(at('/uploads/avatars/0a1b.webp', 'https://cdn.test'), ORIGIN)).toBe(false);
  });
});
