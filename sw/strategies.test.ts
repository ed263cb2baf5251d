import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Strategy } from 'workbox-strategies';
import { OFFLINE_HEADER } from '../src/contracts/constants.ts';
import {
  MEDIA_MAX_BYTES,
  closeDatabase,
  endCurrentMember,
  readMedia,
  readMediaUsage,
  readResponse,
  setCurrentMember,
} from '../src/lib/idb.ts';
import { apiStrategy, mediaStrategy } from './strategies.ts';

// Workbox reads the worker's global scope as it loads: Node's global stands in for it.
const { FetchLikeEvent } = vi.hoisted(() => {
  /** A fetch event's lifetime: the work it keeps the worker alive for. */
  class ExtendableEvent extends Event {
    readonly kept: Promise<unknown>[] = [];
    waitUntil(work: Promise<unknown>) {
      this.kept.push(work);
    }
  }
  Object.assign(globalThis, {
    self: globalThis,
    location: new URL('https://orbit.test/'),
    __WB_DISABLE_DEV_LOGS: true,
    ExtendableEvent,
    FetchEvent: class FetchEvent extends ExtendableEvent {},
  });
  return { FetchLikeEvent: ExtendableEvent };
});

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
const later = (ms: number, response: () => Response) =>
  new Promise<Response>((resolve) => setTimeout(() => resolve(response()), ms));

/** Cache Storage as the worker finds it: empty, and it must stay so (nothing per member goes there). */
function emptyCacheStorage() {
  return {
    match: vi.fn(() => Promise.resolve(undefined)),
    open: vi.fn(() => Promise.reject(new Error('nothing is kept in Cache Storage'))),
  };
}
let cacheStorage = emptyCacheStorage();

/**
 * One fetch event handled by `strategy`, with `network` as the worker's fetch: the answer, and
 * `settled` for when the work the event kept alive (saving a copy) is done.
 */
function handle(strategy: Strategy, url: string, network: (request: Request) => Promise<Response>) {
  const fetch = vi.fn(network);
  vi.stubGlobal('fetch', fetch);
  const event = new FetchLikeEvent('fetch');
  const [answer, done] = strategy.handleAll({
    request: new Request(url),
    event: event as unknown as ExtendableEvent,
  });
  return {
    answer,
    fetch,
    async settled() {
      await done.catch(() => undefined);
      let count: number;
      do {
        count = event.kept.length;
        await Promise.allSettled(event.kept);
      } while (event.kept.length > count);
    },
  };
}

async function visit(
  url: string,
  network: (request: Request) => Promise<Response>,
  timeoutSeconds?: number,
) {
  const handled = handle(apiStrategy(timeoutSeconds), url, network);
  await handled.settled();
  return handled.answer;
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  cacheStorage = emptyCacheStorage();
  vi.stubGlobal('caches', cacheStorage);
});

afterEach(async () => {
  await closeDatabase();
  expect(cacheStorage.open).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
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

    const event = handle(apiStrategy(0.02), list, () =>
      later(120, () => json({ images: ['new'] })),
    );
    const started = Date.now();
    const response = await event.answer;
    expect(Date.now() - started).toBeLessThan(110);
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1');
    expect(await response.json()).toEqual({ images: ['old'] });

    await event.settled();
    expect((await readResponse(ALICE, list))?.body).toBe('{"images":["new"]}');
  });

  it('wait for a slow network when there is no copy', async () => {
    await setCurrentMember(ALICE);
    const response = await visit(ME, () => later(60, () => json({ user: null })), 0.01);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect(await response.json()).toEqual({ user: null });
  });

  it('fail like the network when it fails and there is no copy', async () => {
    await setCurrentMember(ALICE);
    await expect(visit(ME, offline)).rejects.toThrow();
  });

  it('treat an unreachable server behind a proxy as offline', async () => {
    await setCurrentMember(ALICE);
    await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    const response = await visit(ME, () => Promise.resolve(new Response('', { status: 503 })));
    expect(response.headers.get(OFFLINE_HEADER)).toBe('1');
  });

  it('pass an unreachable server’s answer on when there is no copy', async () => {
    await setCurrentMember(ALICE);
    const response = await visit(ME, () => Promise.resolve(new Response('', { status: 502 })));
    expect(response.status).toBe(502);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect(await readResponse(ALICE, ME)).toBeNull();
  });

  it('pass other failures through, without saving them or answering from the copy', async () => {
    await setCurrentMember(ALICE);
    const counts = `${ORIGIN}/api/users/friends/counts`;
    await visit(counts, () => Promise.resolve(json({ friends: 1 })));

    const response = await visit(counts, () => Promise.resolve(json({ error: 'Nope' }, 500)));
    expect(response.status).toBe(500);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect((await readResponse(ALICE, counts))?.body).toBe('{"friends":1}');
  });

  it('forget the copy of what the server now says is not there (a block, a deletion)', async () => {
    await setCurrentMember(ALICE);
    const profile = `${ORIGIN}/api/users/profile/bob`;
    await visit(profile, () => Promise.resolve(json({ user: { username: 'bob' } })));

    const response = await visit(profile, () =>
      Promise.resolve(json({ error: 'No such member.' }, 404)),
    );
    expect(response.status).toBe(404);
    expect(response.headers.get(OFFLINE_HEADER)).toBeNull();
    expect(await readResponse(ALICE, profile)).toBeNull();
    await expect(visit(profile, offline)).rejects.toThrow();
  });

  it('save and serve nothing while nobody is signed in', async () => {
    const response = await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    expect(response.ok).toBe(true);
    expect(await readResponse(ALICE, ME)).toBeNull();
    await expect(visit(ME, offline)).rejects.toThrow();
  });

  it('never show one member what another saw', async () => {
    await setCurrentMember(ALICE);
    await visit(ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    await setCurrentMember(BOB);
    await expect(visit(ME, offline)).rejects.toThrow();
  });

  it('do not save an answer that arrives after its member signed out', async () => {
    await setCurrentMember(ALICE);
    const event = handle(apiStrategy(), ME, () => later(40, () => json({ user: { id: ALICE } })));
    const answer = event.answer;
    await endCurrentMember();
    await setCurrentMember(BOB);
    expect((await answer).ok).toBe(true);
    await event.settled();
    expect(await readResponse(ALICE, ME)).toBeNull();
    expect(await readResponse(BOB, ME)).toBeNull();
  });

  it('answer from the network without waiting for the saved data', async () => {
    await setCurrentMember(ALICE);
    await closeDatabase();
    // A database that does not open until the test lets it fail.
    const opening = Object.assign(new EventTarget(), { error: new Error('unavailable') });
    vi.stubGlobal('indexedDB', { open: () => opening });
    const event = handle(apiStrategy(), ME, () => Promise.resolve(json({ user: { id: ALICE } })));
    expect(await (await event.answer).json()).toEqual({ user: { id: ALICE } });
    opening.dispatchEvent(new Event('error'));
    await event.settled();
  });
});

describe('thumbnails and avatars, cache first', () => {
  async function load(url: string, network: (request: Request) => Promise<Response>) {
    const event = handle(mediaStrategy(), url, network);
    await event.settled();
    return { response: await event.answer, fetch: event.fetch };
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
    await expect(load(THUMB, offline)).rejects.toThrow();
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
