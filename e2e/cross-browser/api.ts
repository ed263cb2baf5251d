/**
 * Setting up other members through the HTTP API with plain fetch (these suites have no Playwright
 * request fixture), as the Chromium suite's helpers do.
 */
import fs from 'node:fs';
import path from 'node:path';
import { io } from 'socket.io-client';
import * as PATHS from '../../src/contracts/endpoints.paths.ts';
import { PASSWORD, type Member, avatarPng, uniqueName } from '../helpers.ts';
import { waitUntil } from './driver.ts';

/** Signs a member up through the API, with a profile picture. */
export async function createMember(origin: string): Promise<Member> {
  const username = uniqueName();
  const member = { username, email: `${username}@orbit.example`, password: PASSWORD };
  const form = new FormData();
  form.set('username', username);
  form.set('email', member.email);
  form.set('password', PASSWORD);
  form.set('birthday', '1991-07-14');
  form.set(
    'profilePic',
    new Blob([new Uint8Array(await avatarPng())], { type: 'image/png' }),
    'me.png',
  );
  const response = await fetch(`${origin}/api/auth/signup`, {
    method: 'POST',
    headers: { Origin: origin },
    body: form,
  });
  if (response.status !== 201)
    throw new Error(`signup failed: ${response.status} ${await response.text()}`);
  return member;
}

/** A member's own API session: their id and a `post` that carries their cookie. */
export interface Session {
  id: string;
  cookie: string;
  post: (path: string, body: unknown) => Promise<Response>;
}

/** A photo of a member's gallery, as the API lists it to that member. */
export interface ListedImage {
  id: string;
  likes: string[];
  likeCount: number;
}

/**
 * The member's own photos, newest first, asked at `base`: the relay's origin, or the server's own
 * address while the browser's network is cut.
 */
export async function ownPhotos(session: Session, base: string): Promise<ListedImage[]> {
  const response = await fetch(`${base}${PATHS.galleryPage.path}?userId=${session.id}`, {
    headers: { Cookie: session.cookie },
  });
  if (!response.ok)
    throw new Error(`the gallery did not answer: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { images: ListedImage[] }).images;
}

/** Uploads a photo file to the member's gallery, as the Upload button does. */
export async function uploadPhoto(origin: string, session: Session, file: string): Promise<void> {
  const form = new FormData();
  form.set('image', new Blob([fs.readFileSync(file)], { type: 'image/png' }), path.basename(file));
  const response = await fetch(`${origin}${PATHS.galleryUpload.path}`, {
    method: 'POST',
    headers: { Origin: origin, Cookie: session.cookie },
    body: form,
  });
  if (response.status !== 201)
    throw new Error(`upload failed: ${response.status} ${await response.text()}`);
}

export async function logInApi(origin: string, member: Member): Promise<Session> {
  const response = await fetch(`${origin}/api/auth/login`, {
    method: 'POST',
    headers: { Origin: origin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier: member.username, password: member.password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  const cookie = response.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ');
  const { user } = (await response.json()) as { user: { id: string } };
  return {
    id: user.id,
    cookie,
    post: (path, body) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { Origin: origin, Cookie: cookie, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
  };
}

export async function sendFriendRequest(from: Session, toUserId: string): Promise<void> {
  const response = await from.post('/api/users/friends/request', { toUserId });
  if (!response.ok)
    throw new Error(`friend request failed: ${response.status} ${await response.text()}`);
}

/**
 * Waits until `memberId` has a live connection to the server (a tab of theirs joined presence),
 * asked over a socket of `watcher`'s, so what follows can only reach that tab as a live event.
 */
export async function waitUntilOnline(origin: string, watcher: Session, memberId: string) {
  const socket = io(origin, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    extraHeaders: { cookie: watcher.cookie, origin },
  });
  try {
    await waitUntil(`@${memberId} to be online`, () =>
      socket
        .timeout(2_000)
        .emitWithAck('gallery:join', { ownerId: memberId })
        .then((ack: { online?: boolean }) => ack.online === true),
    );
  } finally {
    socket.disconnect();
  }
}
