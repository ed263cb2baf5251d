/**
 * Server data in the app's zustand stores, held one way (docs/architecture.md "Client state"):
 * keyed entries with freshness, one request in flight per key, the answer of a request another
 * one has overtaken dropped, paged lists, optimistic changes rolled back when the call fails, and
 * what is on screen read again when the socket (re)connects or the connection comes back. Each
 * store makes one `createServerState()` and resets it with the member (src/lib/memberState.ts):
 * its timers stop, and no request started before the reset answers into the store afterwards.
 */
import { type StoreApi, type UseBoundStore, create } from 'zustand';
import { HttpError } from './http.ts';
import { joinMemberState } from './memberState.ts';

/** The result of `optimistic`: whether the server agreed, and its answer when it did. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

export interface Throttle {
  /** Runs now, or once when the interval since the last run is over; calls in between merge. */
  call: () => void;
  /** Forgets the waiting run and the last run, so the next call runs at once. */
  cancel: () => void;
}

/**
 * A request's claim on a key: current until a newer request claims the key or the store resets.
 * Only a current request writes its answer.
 */
interface Ticket {
  readonly current: boolean;
}

export interface ServerState {
  /** Whether an answer fetched at `fetchedAt` is still within `ttlMs`. */
  isFresh: (fetchedAt: number | undefined, ttlMs: number) => boolean;
  /** The running request for `key`, or a new one from `start`: one request in flight per key. */
  dedupe: <T>(key: string, start: () => Promise<T>) => Promise<T>;
  /** A new claim on `key`, overtaking every earlier one. */
  claim: (key: string) => Ticket;
  /** The claim `key` has now, without overtaking it (a later page waits on the first page's claim). */
  current: (key: string) => Ticket;
  /**
   * Applies a change at once; `apply` answers how to undo it. When `call` fails the change is
   * undone, unless the call waits in the offline outbox (`isQueued`); either way the outcome says
   * what happened.
   */
  optimistic: <T>(apply: () => () => void, call: () => Promise<T>) => Promise<Outcome<T>>;
  /** Runs `run` once after `ms`; `reset()` cancels it. */
  later: (run: () => void, ms: number) => void;
  /** Runs `run` once, `ms` after the last call for `key` (a burst costs one run). */
  debounce: (key: string, run: () => void, ms: number) => void;
  /** Drops the run waiting under `key` (debounce). */
  cancel: (key: string) => void;
  /** A throttle whose waiting run `reset()` cancels too; it stays usable after a reset. */
  throttle: (run: () => void, ms: number) => Throttle;
  /** Runs `cleanup` at every `reset()` (the entries and pagers built on this state). */
  onReset: (cleanup: () => void) => void;
  /** Cancels every timer and throttle, forgets the requests in flight and ends every claim. */
  reset: () => void;
}

/**
 * Runs `run` at most once per `ms`: a call inside the window is deferred to its end (one trailing
 * run however many calls came in), so the last change is never lost.
 */
export function createThrottle(run: () => void, ms: number): Throttle {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = Date.now();
    run();
  };
  return {
    call() {
      const wait = last + ms - Date.now();
      if (wait <= 0 && timer === undefined) fire();
      else timer ??= setTimeout(fire, Math.max(0, wait));
    },
    cancel() {
      clearTimeout(timer);
      timer = undefined;
      last = -Infinity;
    },
  };
}

// A call the server refused with 401: the session may have ended (src/features/auth/store.ts asks).

const unauthorizedListeners = new Set<() => void>();

/** Hears every call made through this helper that the server answered with 401. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => {
    unauthorizedListeners.delete(listener);
  };
}

function noteFailure(error: unknown): void {
  if (error instanceof HttpError && error.status === 401)
    for (const listener of unauthorizedListeners) listener();
}

/**
 * The call did not reach the server but waits in the offline outbox, to be sent when the network
 * is back (docs/decisions.md "The offline outbox"): the change it made stands.
 */
export const isQueued = (error: unknown): boolean =>
  error instanceof HttpError && error.status === 202;

/** The server says the thing asked for is not there (or not there for this member: a block). */
export const isMissing = (error: unknown): boolean =>
  error instanceof HttpError && error.status === 404;

export function createServerState(): ServerState {
  const inFlight = new Map<string, Promise<unknown>>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const debounced = new Map<string, ReturnType<typeof setTimeout>>();
  const throttles = new Set<Throttle>();
  const cleanups = new Set<() => void>();
  const claims = new Map<string, number>();
  /** Bumped by reset(): every claim made before it ends. */
  let epoch = 0;

  const ticketOf = (key: string, round: number): Ticket => {
    const at = epoch;
    return {
      get current() {
        return at === epoch && claims.get(key) === round;
      },
    };
  };

  const later = (run: () => void, ms: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  return {
    isFresh: (fetchedAt, ttlMs) => fetchedAt !== undefined && Date.now() - fetchedAt < ttlMs,

    dedupe<T>(key: string, start: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key) as Promise<T> | undefined;
      if (running) return running;
      const request = start()
        .catch((error: unknown) => {
          noteFailure(error);
          throw error;
        })
        .finally(() => {
          if (inFlight.get(key) === request) inFlight.delete(key);
        });
      inFlight.set(key, request);
      return request;
    },

    claim(key) {
      const round = (claims.get(key) ?? 0) + 1;
      claims.set(key, round);
      return ticketOf(key, round);
    },

    current(key) {
      if (!claims.has(key)) claims.set(key, 0);
      return ticketOf(key, claims.get(key) ?? 0);
    },

    async optimistic<T>(apply: () => () => void, call: () => Promise<T>): Promise<Outcome<T>> {
      const undo = apply();
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        noteFailure(error);
        if (!isQueued(error)) undo();
        return { ok: false, error };
      }
    },

    later,

    debounce(key, run, ms) {
      clearTimeout(debounced.get(key));
      debounced.set(
        key,
        setTimeout(() => {
          debounced.delete(key);
          run();
        }, ms),
      );
    },

    cancel(key) {
      clearTimeout(debounced.get(key));
      debounced.delete(key);
    },

    throttle(run, ms) {
      const throttle = createThrottle(run, ms);
      throttles.add(throttle);
      return throttle;
    },

    onReset(cleanup) {
      cleanups.add(cleanup);
    },

    reset() {
      epoch += 1;
      claims.clear();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const timer of debounced.values()) clearTimeout(timer);
      debounced.clear();
      for (const throttle of throttles) throttle.cancel();
      inFlight.clear();
      for (const cleanup of cleanups) cleanup();
    },
  };
}

// What is on screen, read again when it may have gone stale.

/**
 * Why what is shown is read again: `connect`, the socket (re)connected, so an event may have been
 * missed while it was not (only what socket events keep current); `online`, the connection came
 * back, so anything shown may be a copy the service worker saved.
 */
export type Refetch = 'connect' | 'online';

interface Shown {
  refetch: (reason: Refetch) => void;
  live: boolean;
}

const shown = new Set<Shown>();

/**
 * Registers `refetch` while something is on screen; answers the function that removes it. `live`:
 * socket events keep it current, so it is read again at every (re)connect as well as when the
 * connection comes back.
 */
export function whileShown(
  refetch: (reason: Refetch) => void,
  options: { live: boolean },
): () => void {
  const entry: Shown = { refetch, live: options.live };
  shown.add(entry);
  return () => {
    shown.delete(entry);
  };
}

/** Reads again what is on screen (src/app/useRealtime.ts calls it; docs/architecture.md "Client state"). */
export function refetchShown(reason: Refetch): void {
  for (const entry of [...shown]) if (reason === 'online' || entry.live) entry.refetch(reason);
}

// Keyed entries.

/**
 * One thing from the server under its key: `loading` until the first answer, `ready` with its
 * value (kept through a failed refresh), `error` when the first answer failed, `missing` when the
 * server said there is no such thing (404), whatever was held before.
 */
export interface Entry<V> {
  status: 'loading' | 'ready' | 'error' | 'missing';
  value?: V | undefined;
  fetchedAt?: number | undefined;
  /** Why the first answer failed (status `error`). */
  error?: unknown;
}

export interface EntriesOptions<V> {
  /** The store's record of entries, and how to replace it. */
  get: () => Readonly<Record<string, Entry<V>>>;
  set: (entries: Record<string, Entry<V>>) => void;
  fetch: (key: string, signal: AbortSignal) => Promise<V>;
  /** How long an answer counts as fresh; 0 (the default): read again each time it is shown. */
  ttlMs?: number;
  /** Socket events keep these entries current: read again at every (re)connect while shown. */
  live?: boolean;
}

export interface Entries<V> {
  /** From the store while fresh (unless `force`), else from the server; one request per key. */
  load: (key: string, options?: { force?: boolean }) => Promise<void>;
  /** A value the server gave elsewhere (an action's answer). */
  put: (key: string, value: V) => void;
  /** Changes a held value (a socket event); nothing when the key holds no value. */
  patch: (key: string, change: (value: V) => V) => void;
  /**
   * Loads `key` and keeps it current while shown; the answer stops it. A request for a key no
   * longer shown anywhere is aborted, and an entry that never got its answer is dropped.
   */
  show: (key: string) => () => void;
}

/** Tells the claims of one set of entries from another's on the same state. */
let entriesMade = 0;

export function createEntries<V>(server: ServerState, options: EntriesOptions<V>): Entries<V> {
  const { get, set, fetch, ttlMs = 0, live = false } = options;
  const claimKey = `entries${++entriesMade}:`;
  const requests = new Map<string, { done: Promise<void>; controller: AbortController }>();
  const viewers = new Map<string, number>();
  const write = (key: string, entry: Entry<V> | undefined) => {
    const entries = { ...get() };
    if (entry) entries[key] = entry;
    else delete entries[key];
    set(entries);
  };
  server.onReset(() => {
    for (const { controller } of requests.values()) controller.abort();
    requests.clear();
  });

  const start = (key: string): Promise<void> => {
    const ticket = server.claim(`${claimKey}${key}`);
    const controller = new AbortController();
    requests.get(key)?.controller.abort();
    if (get()[key]?.status !== 'ready') write(key, { status: 'loading' });
    const done = fetch(key, controller.signal).then(
      (value) => {
        if (ticket.current) write(key, { status: 'ready', value, fetchedAt: Date.now() });
      },
      (error: unknown) => {
        if (!ticket.current || controller.signal.aborted) return;
        noteFailure(error);
        const held = get()[key];
        if (isMissing(error)) write(key, { status: 'missing' });
        else if (held?.status !== 'ready') write(key, { status: 'error', error });
      },
    );
    const request = {
      controller,
      done: done.finally(() => {
        if (requests.get(key) === request) requests.delete(key);
      }),
    };
    requests.set(key, request);
    return request.done;
  };

  const load: Entries<V>['load'] = (key, { force = false } = {}) => {
    const held = get()[key];
    if (!force && held?.status === 'ready' && server.isFresh(held.fetchedAt, ttlMs))
      return Promise.resolve();
    const running = requests.get(key);
    if (!force && running) return running.done;
    return start(key);
  };

  return {
    load,

    put(key, value) {
      server.claim(`${claimKey}${key}`);
      requests.get(key)?.controller.abort();
      write(key, { status: 'ready', value, fetchedAt: Date.now() });
    },

    patch(key, change) {
      const held = get()[key];
      if (held?.status === 'ready' && held.value !== undefined)
        write(key, { ...held, value: change(held.value) });
    },

    show(key) {
      viewers.set(key, (viewers.get(key) ?? 0) + 1);
      void load(key);
      const stop = whileShown(() => void load(key, { force: true }), { live });
      return () => {
        stop();
        const left = (viewers.get(key) ?? 1) - 1;
        if (left > 0) {
          viewers.set(key, left);
          return;
        }
        viewers.delete(key);
        const running = requests.get(key);
        if (!running) return;
        running.controller.abort();
        requests.delete(key);
        server.claim(`${claimKey}${key}`);
        if (get()[key]?.status === 'loading') write(key, undefined);
      };
    },
  };
}

/** A store's records of entries, one per kind, and the reset that empties them. */
export type EntryState<T extends Record<string, unknown>> = {
  [K in keyof T]: Record<string, Entry<T[K]>>;
} & { reset: () => void };

/**
 * A zustand store holding keyed entries of each kind in `fetchers`, its entries (`createEntries`)
 * and a reset that joins the member-state registry under `name`.
 */
export function createEntryStore<T extends Record<string, unknown>>(
  name: string,
  fetchers: { [K in keyof T]: Omit<EntriesOptions<T[K]>, 'get' | 'set'> },
): { use: UseBoundStore<StoreApi<EntryState<T>>>; entries: { [K in keyof T]: Entries<T[K]> } } {
  const server = createServerState();
  const kinds = Object.keys(fetchers) as (keyof T & string)[];
  const empty = () =>
    Object.fromEntries(kinds.map((kind) => [kind, {}])) as unknown as Partial<EntryState<T>>;
  const use = create<EntryState<T>>()(
    (set) =>
      ({
        ...empty(),
        reset() {
          server.reset();
          set(empty());
        },
      }) as EntryState<T>,
  );
  const entries = Object.fromEntries(
    kinds.map((kind) => [
      kind,
      createEntries(server, {
        ...fetchers[kind],
        get: () => use.getState()[kind],
        set: (records) => use.setState({ [kind]: records } as Partial<EntryState<T>>),
      }),
    ]),
  ) as unknown as { [K in keyof T]: Entries<T[K]> };
  joinMemberState(name, { reset: () => use.getState().reset() });
  return { use, entries };
}

// Paged lists.

/**
 * A list the server hands out page by page (docs/decisions.md "A paged gallery"): the pages read
 * so far, where the next one starts and how many there are in all. A list without the paging
 * fields is complete.
 */
export interface PagedList<T> {
  status: 'loading' | 'ready' | 'error' | 'missing';
  items: T[];
  /** Where the next page starts; null or absent once every item is here. */
  nextCursor?: string | null | undefined;
  /** How many items the server has; absent means `items.length`. */
  total?: number | undefined;
  /** A further page on its way, or the last one failed (never tried again on its own). */
  more?: 'idle' | 'loading' | 'error' | undefined;
  /** Why the first page (status `error`) or the last further page (`more: 'error'`) failed. */
  error?: unknown;
}

/** One page as the feature's api reads it. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
  total?: number | undefined;
}

export interface PagerOptions<T, P extends Page<T>> {
  read: (key: string) => PagedList<T> | undefined;
  /**
   * Writes the list under `key`, with the page it took in when there is one; a `missing` list
   * means the server no longer has any of it.
   */
  write: (key: string, list: PagedList<T>, page?: P) => void;
  fetch: (key: string, cursor: string | null, limit?: number) => Promise<P>;
  idOf: (item: T) => string;
  /** Items left out of every page (one being deleted here); the total leaves them out too. */
  hide?: (id: string) => boolean;
  /**
   * When the first page is read again: keep the pages read past it, so the member keeps their
   * place, and keep a list already shown when the read fails. Otherwise the first page replaces
   * the list, and a failure shows instead of it.
   */
  keep?: boolean;
}

export interface Pager {
  /** The first page afresh; an answer overtaken by a newer first page is dropped. */
  first: (key: string) => Promise<void>;
  /** The next page, if there is one and none is on its way; answers whether new items came. */
  next: (key: string, limit?: number) => Promise<boolean>;
  /** Drops the answers on their way for `key` (the list is to be read afresh when next shown). */
  forget: (key: string) => void;
}

let pagersMade = 0;

export function createPager<T, P extends Page<T> = Page<T>>(
  server: ServerState,
  options: PagerOptions<T, P>,
): Pager {
  const { read, write, fetch, idOf, hide = () => false, keep = false } = options;
  const prefix = `pages${++pagersMade}:`;
  const claimKey = (key: string) => `${prefix}${key}`;
  const totalWith = (total: number | undefined, length: number) =>
    total === undefined ? {} : { total: Math.max(total, length) };

  return {
    async first(key) {
      const ticket = server.claim(claimKey(key));
      const before = read(key);
      if (!before || (!keep && before.status !== 'ready'))
        write(key, { ...before, status: 'loading', items: before?.items ?? [] });
      try {
        const page = await fetch(key, null);
        if (!ticket.current) return;
        const items = page.items.filter((item) => !hide(idOf(item)));
        const list = read(key);
        const fresh = new Set(items.map(idOf));
        // Pages read past the first stay after it, with their own cursor (when the first page is
        // not the whole list).
        const further =
          keep &&
          list?.status === 'ready' &&
          page.nextCursor !== null &&
          list.items.length > page.items.length
            ? list.items.filter((item) => !fresh.has(idOf(item)))
            : [];
        const all = [...items, ...further];
        write(
          key,
          {
            status: 'ready',
            items: all,
            nextCursor: further.length > 0 ? (list?.nextCursor ?? null) : page.nextCursor,
            ...totalWith(
              page.total === undefined
                ? undefined
                : page.total - (page.items.length - items.length),
              all.length,
            ),
            more: 'idle',
          },
          page,
        );
      } catch (error) {
        if (!ticket.current) return;
        noteFailure(error);
        const list = read(key);
        if (isMissing(error)) write(key, { status: 'missing', items: [] });
        else if (!(keep && list?.status === 'ready'))
          write(key, { ...(list ?? { items: [] }), status: 'error', more: 'idle', error });
      }
    },

    async next(key, limit) {
      const list = read(key);
      if (!list || list.status !== 'ready' || !list.nextCursor || list.more === 'loading')
        return false;
      const cursor = list.nextCursor;
      const ticket = server.current(claimKey(key));
      const mark = (change: Partial<PagedList<T>>) => {
        const current = read(key);
        if (current?.nextCursor === cursor) write(key, { ...current, ...change });
      };
      mark({ more: 'loading', error: undefined });
      try {
        const page = await fetch(key, cursor, limit);
        // A fresh first page meanwhile has its own cursor; this page may not follow it.
        const current = read(key);
        if (!ticket.current || current?.nextCursor !== cursor) return false;
        const known = new Set(current.items.map(idOf));
        const added = page.items.filter((item) => !known.has(idOf(item)) && !hide(idOf(item)));
        const items = [...current.items, ...added];
        write(
          key,
          {
            ...current,
            items,
            nextCursor: page.nextCursor,
            ...totalWith(page.total ?? current.total, items.length),
            more: 'idle',
          },
          page,
        );
        return added.length > 0;
      } catch (error) {
        if (!ticket.current) return false;
        noteFailure(error);
        mark({ more: 'error', error });
        return false;
      }
    },

    forget(key) {
      server.claim(claimKey(key));
    },
  };
}
