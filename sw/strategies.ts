/**
 * How the worker answers API calls and pictures: workbox's NetworkFirst and CacheFirst, whose
 * cache is the member's saved copies in IndexedDB (src/lib/idb.ts) rather than Cache Storage, so
 * everything saved belongs to one member and goes at logout. With no current member nothing is
 * saved and nothing saved is served.
 */
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { OFFLINE_HEADER } from '../src/contracts/constants.ts';
import {
  deleteResponse,
  readCurrentMember,
  readMedia,
  readResponse,
  saveMedia,
  saveResponse,
} from '../src/lib/idb.ts';

/** How long an API call may take before the saved copy answers instead. */
const API_TIMEOUT_SECONDS = 3;
/** Answers from a proxy whose server cannot be reached: as good as no network. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);
/**
 * Answers that say the thing is not there for this member: deleted, or a member who blocked them
 * or was blocked (docs/product.md "Blocking": 404, as if absent). A copy saved before must not
 * show it to them offline.
 */
const GONE_STATUSES = new Set([404, 410]);

/** Where one kind of answer is kept per member. */
interface MemberStore {
  read: (userId: string, url: string) => Promise<Response | undefined>;
  /** Whether an answer from the network is worth keeping. */
  keeps: (response: Response) => boolean;
  save: (userId: string, url: string, response: Response) => Promise<unknown>;
  /** Drops the copy of an answer the server now says is gone. */
  forget?: (userId: string, url: string) => Promise<unknown>;
}

/** What the plugin remembers for one request. */
interface RequestState {
  /** The member signed in when the request started: only they are served and saved for. */
  member?: Promise<string | null>;
  /** Their saved copy, read as the request starts when the network goes first. */
  copy?: Promise<Response | null>;
  /** Whether the network's answer is worth keeping, judged on the answer itself. */
  keep?: boolean;
  /** An answer from an unreachable server, passed on when there is no copy to answer with. */
  unreachable?: Response;
  /** Settles once the network's answer is saved or the network failed. */
  network?: { done: Promise<void>; settle: () => void };
}

/**
 * Makes a strategy's cache the current member's copies: reads come from `store`, and writes go
 * to `store` instead of Cache Storage (`cacheWillUpdate` saves, then answers null so workbox puts
 * nothing in Cache Storage). With `readAhead` the copy is read beside the network, so a network
 * that fails (offline) is answered from it at once instead of only then starting to read it.
 */
function memberCopies(store: MemberStore, { readAhead = false } = {}): WorkboxPlugin {
  const stateOf = (state: unknown) => state as RequestState;
  const copyOf = async (member: Promise<string | null> | undefined, url: string) => {
    const userId = await member;
    return userId ? ((await store.read(userId, url).catch(() => undefined)) ?? null) : null;
  };
  return {
    // Not awaited here, so the network starts without waiting for IndexedDB.
    handlerWillStart: ({ request, state }) => {
      const member = readCurrentMember().catch(() => null);
      stateOf(state).member = member;
      if (readAhead) stateOf(state).copy = copyOf(member, request.url);
      return Promise.resolve();
    },
    requestWillFetch: ({ request, state }) => {
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      stateOf(state).network = { done, settle };
      return Promise.resolve(request);
    },
    fetchDidSucceed: ({ response, state }) => {
      stateOf(state).keep = store.keeps(response);
      if (!UNREACHABLE_STATUSES.has(response.status)) return Promise.resolve(response);
      stateOf(state).unreachable = response;
      return Promise.reject(new TypeError(`The server is unreachable (${response.status}).`));
    },
    fetchDidFail: ({ state }) => Promise.resolve(stateOf(state).network?.settle()),
    cachedResponseWillBeUsed: ({ request, state }) =>
      stateOf(state).copy ?? copyOf(stateOf(state).member, request.url),
    cacheWillUpdate: async ({ request, response, state }) => {
      const { member, keep, network } = stateOf(state);
      const userId = await member;
      if (userId && keep) await store.save(userId, request.url, response).catch(() => undefined);
      else if (userId && GONE_STATUSES.has(response.status))
        await store.forget?.(userId, request.url).catch(() => undefined);
      network?.settle();
      return null;
    },
    handlerDidError: ({ state }) => Promise.resolve(stateOf(state).unreachable),
    // An answer from the saved copy does not wait for the network, but the worker stays alive
    // until the network's late answer is saved.
    handlerDidRespond: ({ event, state }) => {
      const network = stateOf(state).network;
      if (network) event.waitUntil(network.done);
      return Promise.resolve();
    },
  };
}

/** API answers (JSON text); a saved one carries {@link OFFLINE_HEADER}. */
const savedResponses: MemberStore = {
  async read(userId, url) {
    const copy = await readResponse(userId, url);
    if (!copy) return undefined;
    return new Response(copy.body, {
      status: copy.status,
      headers: { 'Content-Type': copy.contentType, [OFFLINE_HEADER]: '1' },
    });
  },
  keeps: (response) => response.ok && response.status !== 204,
  forget: deleteResponse,
  async save(userId, url, response) {
    await saveResponse({
      userId,
      url,
      status: response.status,
      contentType: response.headers.get('Content-Type') ?? 'application/json',
      body: await response.text(),
    });
  },
};

/** Thumbnails and avatars, capped per member with the least recently used going first. */
const savedMedia: MemberStore = {
  async read(userId, url) {
    // Reading marks the file as just used.
    const stored = await readMedia(userId, url);
    if (!stored) return undefined;
    const { blob } = stored;
    return new Response(blob, {
      headers: { 'Content-Type': blob.type, 'Content-Length': String(blob.size) },
    });
  },
  // Not an opaque cross-origin answer, whose bytes cannot be read.
  keeps: (response) =>
    response.status === 200 && response.type !== 'opaque' && response.type !== 'error',
  save: async (userId, url, response) => saveMedia(userId, url, await response.blob()),
};

/**
 * Network first: a good answer is returned and saved for the current member; a failure, an
 * unreachable server or an answer slower than the timeout falls back to the saved copy. A slow
 * network with no copy is still waited for; a failed one with no copy fails like the network,
 * and an unreachable server's answer is passed on.
 */
export function apiStrategy(networkTimeoutSeconds = API_TIMEOUT_SECONDS): NetworkFirst {
  return new NetworkFirst({
    networkTimeoutSeconds,
    plugins: [memberCopies(savedResponses, { readAhead: true })],
  });
}

/**
 * Cache first: the member's saved copy of a thumbnail or avatar if there is one, else the
 * network, whose answer is saved for next time.
 */
export function mediaStrategy(): CacheFirst {
  return new CacheFirst({ plugins: [memberCopies(savedMedia)] });
}
