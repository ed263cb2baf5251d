import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  MEDIA_MAX_BYTES,
  closeDatabase,
  endCurrentMember,
  readMedia,
  readMediaUsage,
  readResponse,
  setCurrentMember,
} from '../src/lib/idb.ts';
import { OFFLINE_HEADER } from '../src/contracts/offline.ts';
import { type StrategyContext, cacheFirstMedia, networkFirstApi } from './strategies.ts';

const ORIGIN = 'https://orbit.test';
const ME = `${ORIGIN}/api/auth/me`;
const THUMB = `${ORIGIN}/uploads/gallery/0a1b-thumb.webp`;
const ALICE = 'alice-id';
const BOB = 'bob-id';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
  });
const picture = (bytes: number) =>
  new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'image/webp' } });
const offline = () => Promise.reject(new TypeError('Failed to fetch'));
const never = () => new Promise<Response>(() => undefined);
const later = (ms: number, response: () => Response) =>
  new Promise<Response>((resolve) => setTimeout(() => resolve(response()), ms));

/** A stand-in for one fetch event: the network it sees and the work it keeps alive. */
function eventWith(network: (request: Request) => Promise<Response>, timeoutMs = 3_000) {
  const kept: Promise<unknown>[] = [];
  const fetch = vi.fn(network);
  const context: StrategyContext = { fetch, waitUntil: (work) => kept.push(work), timeoutMs };
  return {
    context,
    fetch,
    /** Waits for everything the event kept alive, including work added while waiting. */
    async settled() {
      let count: number;
      do {
        count = kept.length;
        await Promise.all(kept);
      } while (kept.length > count);
    },
  };
}

async function visit(
  url: string,
  network: (request: Request) => Promise<Response>,
  timeoutMs?: number,
) {
  const event = eventWith(network, timeoutMs);
  const response = await networkFirstApi(new Request(url), event.context);
  await event.settled();
  return response;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

afterEach(async () => {
  await closeDatabase();
});

describe('API calls, network first', () => {
  it('answer from the network and save the answer for the current member', async () => {
    await setCurrentMember(ALICE);
    const response = await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect(await response.json()).toEqual({ user: { id: ALICE } });
    expect(await readResponse(ALICE, ME)).toMatchObject({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: '{"user":{"id":"alice-id"}}',
    });
  });

  it('answer from the saved copy, marked offline, when the network fails', async () => {
    await setCurrentMember(ALICE);
    await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));

    const response = await visit(ME, offline);
    expect(response.status).toBe(200);
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1');
    expect(response.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ user: { id: ALICE } });
  });

  it('refresh the copy on every success', async () => {
    await setCurrentMember(ALICE);
    const counts = `${ORIGIN}/api/users/friends/counts`;
    await visit(counts, () => Promise.resolve(json({ friends: 1 })));
    await visit(counts, () => Promise.resolve(json({ friends: 2 })));
    expect(await (await visit(counts, offline)).json()).toEqual({ friends: 2 });
  });

  it('answer from the copy when the network is slower than the timeout, and save the late answer', async () => {
    await setCurrentMember(ALICE);
    const list = `${ORIGIN}/api/gallery?userId=${ALICE}`;
    await visit(list, () => Promise.resolve(json({ images: ['old'] })));

    const event = eventWith(() => later(120, () => json({ images: ['new'] })), 20);
    const started = Date.now();
    const response = await networkFirstApi(new Request(list), event.context);
    expect(Date.now() - started).toBeLessThan(110);
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1');
    expect(await response.json()).toEqual({ images: ['old'] });

    await event.settled();
    expect((await readResponse(ALICE, list))?.body).toBe('{"images":["new"]}');
  });

  it('wait for a slow network when there is no copy', async () => {
    await setCurrentMember(ALICE);
    const response = await visit(ME, () => later(60, () => json({ user: null })), 10);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect(await response.json()).toEqual({ user: null });
  });

  it('fail like the network when it fails and there is no copy', async () => {
    await setCurrentMember(ALICE);
    const response = await visit(ME, offline);
    expect(response.type).toBe('error');
  });

  it('treat an unreachable server behind a proxy as offline', async () => {
    await setCurrentMember(ALICE);
    await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    const response = await visit(ME, () => Promise.resolve(new Response('', { status: 503 })));
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1');
  });

  it('pass other failures through, without saving them or answering from the copy', async () => {
    await setCurrentMember(ALICE);
    const profile = `${ORIGIN}/api/users/profile/bob`;
    await visit(profile, () => Promise.resolve(json({ user: { username: 'bob' } })));

    const response = await visit(profile, () => Promise.resolve(json({ error: 'Not found' }, 404)));
    expect(response.status).toBe(404);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect((await readResponse(ALICE, profile))?.body).toBe('{"user":{"username":"bob"}}');
  });

  it('save and serve nothing while nobody is signed in', async () => {
    const response = await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    expect(response.ok).toBe(true);
    expect(await readResponse(ALICE, ME)).toBeNull();
    await expect(visit(ME, offline)).rejects.toThrow('Failed to fetch');
  });

  it('never show one member what another saw', async () => {
    await setCurrentMember(ALICE);
    await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    await setCurrentMember(BOB);
    expect((await visit(ME, offline)).type).toBe('error');
  });

  it('do not save an answer that arrives after its member signed out', async () => {
    await setCurrentMember(ALICE);
    const event = eventWith(() => later(40, () => json({ user: { id: ALICE } })));
    const answer = networkFirstApi(new Request(ME), event.context);
    await endCurrentMember();
    await setCurrentMember(BOB);
    expect((await answer).ok).toBe(true);
    await event.settled();
    expect(await readResponse(ALICE, ME)).toBeNull();
    expect(await readResponse(BOB, ME)).toBeNull();
  });

  it('start the network before anything else', async () => {
    await setCurrentMember(ALICE);
    const event = eventWith(never, 10);
    void networkFirstApi(new Request(ME), event.context);
    expect(event.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('thumbnails and avatars, cache first', () => {
  async function load(url: string, network: (request: Request) => Promise<Response>) {
    const event = eventWith(network);
    const response = await cacheFirstMedia(new Request(url), event.context);
    await event.settled();
    return { response, fetch: event.fetch };
  }

  it('come from the network the first time and from the member’s copy afterwards', async () => {
    await setCurrentMember(ALICE);
    const first = await load(THUMB, () => Promise.resolve(picture(64)));
    expect((await first.response.arrayBuffer()).byteLength).toBe(64);

    const second = await load(THUMB, offline);
    expect(second.fetch).not.toHaveBeenCalled();
    expect(second.response.headers.get('Content-Type')).toBe('image/webp');
    expect((await second.response.arrayBuffer()).byteLength).toBe(64);
  });

  it('are not saved while nobody is signed in, nor served to another member', async () => {
    await load(THUMB, () => Promise.resolve(picture(8)));
    expect(await readMedia(ALICE, THUMB)).toBeNull();

    await setCurrentMember(ALICE);
    await load(THUMB, () => Promise.resolve(picture(8)));
    await setCurrentMember(BOB);
    await expect(load(THUMB, offline)).rejects.toThrow('Failed to fetch');
  });

  it('are not saved when the answer is a failure or cannot be read', async () => {
    await setCurrentMember(ALICE);
    await load(THUMB, () => Promise.resolve(new Response('missing', { status: 404 })));
    const opaque = picture(8);
    Object.defineProperty(opaque, 'type', { value: 'opaque' });
    await load(`${ORIGIN}/uploads/avatars/a.webp`, () => Promise.resolve(opaque));
    expect(await readMediaUsage(ALICE)).toEqual({ files: 0, bytes: 0 });
  });

  it('make room by dropping the least recently used once the byte cap is reached', async () => {
    await setCurrentMember(ALICE);
    const size = Math.floor(MEDIA_MAX_BYTES / 3) + 1;
    const urls = ['a', 'b', 'c'].map((name) => `${ORIGIN}/uploads/gallery/${name}-thumb.webp`);
    await load(urls[0]!, () => Promise.resolve(picture(size)));
    await load(urls[1]!, () => later(5, () => picture(size)));
    // Looking at the first again makes the second the least recently used.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await load(urls[0]!, offline);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await load(urls[2]!, () => Promise.resolve(picture(size)));

    expect(await readMedia(ALICE, urls[1]!)).toBeNull();
    expect(await readMediaUsage(ALICE)).toEqual({ files: 2, bytes: 2 * size });
    const again = await load(urls[1]!, () => Promise.resolve(picture(size)));
    expect(again.fetch).toHaveBeenCalledTimes(1);
  });
});
