import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from './http.ts';
import { resetMemberState } from './memberState.ts';
import {
  type Entry,
  type Page,
  type PagedList,
  createEntries,
  createEntryStore,
  createPager,
  createServerState,
  createThrottle,
  onUnauthorized,
  refetchShown,
  whileShown,
} from './serverState.ts';

/** A promise to answer by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((done, fail) => {
    resolve = done;
    reject = fail;
  });
  return { promise, resolve, reject };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('createThrottle', () => {
  it('runs at most once per 1.2 s, with one trailing run for calls in the window', () => {
    const fn = vi.fn();
    const throttle = createThrottle(fn, 1_200);
    throttle.call();
    expect(fn).toHaveBeenCalledTimes(1);
    throttle.call();
    throttle.call();
    vi.advanceTimersByTime(1_199);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5_000);
    expect(fn).toHaveBeenCalledTimes(2);
    throttle.call();
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it('cancel drops a pending trailing run', () => {
    const fn = vi.fn();
    const throttle = createThrottle(fn, 1_200);
    throttle.call();
    throttle.call();
    throttle.cancel();
    vi.advanceTimersByTime(2_000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe('server state', () => {
  it('calls an answer fresh only within its time to live', () => {
    const state = createServerState();
    const fetchedAt = Date.now();
    expect(state.isFresh(fetchedAt, 30_000)).toBe(true);
    vi.advanceTimersByTime(29_999);
    expect(state.isFresh(fetchedAt, 30_000)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(state.isFresh(fetchedAt, 30_000)).toBe(false);
    expect(state.isFresh(undefined, 30_000)).toBe(false);
  });

  it('shares one request in flight per key, and asks again once it settled', async () => {
    const state = createServerState();
    let answer: (value: string) => void = () => undefined;
    const start = vi.fn(() => new Promise<string>((resolve) => (answer = resolve)));
    const first = state.dedupe('u2', start);
    const second = state.dedupe('u2', start);
    const other = state.dedupe('u3', () => Promise.resolve('other'));
    expect(start).toHaveBeenCalledTimes(1);
    answer('friends');
    await expect(Promise.all([first, second, other])).resolves.toEqual([
      'friends',
      'friends',
      'other',
    ]);
    void state.dedupe('u2', start);
    expect(start).toHaveBeenCalledTimes(2);
  });

  it('keeps an optimistic change the server agreed to', async () => {
    const state = createServerState();
    let value = 'none';
    const outcome = await state.optimistic(
      () => {
        const before = value;
        value = 'pending';
        return () => (value = before);
      },
      () => Promise.resolve('pending'),
    );
    expect(outcome).toEqual({ ok: true, value: 'pending' });
    expect(value).toBe('pending');
  });

  it('keeps an optimistic change whose call waits in the offline outbox', async () => {
    const state = createServerState();
    let value = 'incoming';
    const queued = new HttpError(202, 'Waiting to send', 'Waiting to send');
    const outcome = await state.optimistic(
      () => {
        const before = value;
        value = 'friends';
        return () => (value = before);
      },
      () => Promise.reject(queued),
    );
    expect(outcome).toEqual({ ok: false, error: queued });
    expect(value).toBe('friends');
  });

  it('rolls an optimistic change back when the call fails', async () => {
    const state = createServerState();
    let value = 'incoming';
    const seen: string[] = [];
    const failure = new Error('500');
    const outcome = await state.optimistic(
      () => {
        const before = value;
        value = 'friends';
        return () => (value = before);
      },
      () => {
        seen.push(value);
        return Promise.reject(failure);
      },
    );
    expect(seen).toEqual(['friends']);
    expect(outcome).toEqual({ ok: false, error: failure });
    expect(value).toBe('incoming');
  });

  it('runs a debounced task once, after the last call of a burst', () => {
    const state = createServerState();
    const run = vi.fn();
    state.debounce('counts', run, 350);
    vi.advanceTimersByTime(200);
    state.debounce('counts', run, 350);
    vi.advanceTimersByTime(349);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('fires nothing after reset: no later task, no debounced task, no trailing throttle run', () => {
    const state = createServerState();
    const fired: string[] = [];
    state.later(() => fired.push('later'), 300);
    state.debounce('counts', () => fired.push('debounce'), 350);
    const throttle = state.throttle(() => fired.push('throttle'), 1_200);
    throttle.call();
    throttle.call();
    expect(fired).toEqual(['throttle']);
    state.reset();
    vi.advanceTimersByTime(60_000);
    expect(vi.getTimerCount()).toBe(0);
    expect(fired).toEqual(['throttle']);
    // The throttle stays usable after a reset, and runs at once.
    throttle.call();
    expect(fired).toEqual(['throttle', 'throttle']);
  });

  it('forgets the requests in flight at reset, so the next one asks again', async () => {
    const state = createServerState();
    const start = vi.fn(() => new Promise<string>(() => undefined));
    void state.dedupe('u2', start);
    state.reset();
    void state.dedupe('u2', start);
    expect(start).toHaveBeenCalledTimes(2);
    const fresh = vi.fn(() => Promise.resolve('ok'));
    await expect(state.dedupe('u4', fresh)).resolves.toBe('ok');
  });
});

describe('claims', () => {
  it('lets only the latest request for a key write, and none once the state was reset', () => {
    const state = createServerState();
    const first = state.claim('list');
    const other = state.claim('other');
    expect(first.current).toBe(true);
    const second = state.claim('list');
    expect(first.current).toBe(false);
    expect(second.current).toBe(true);
    const following = state.current('list');
    expect(following.current).toBe(true);
    state.reset();
    expect([second.current, following.current, other.current]).toEqual([false, false, false]);
    expect(state.claim('list').current).toBe(true);
  });
});

describe('keyed entries', () => {
  function setUp(options: { ttlMs?: number; live?: boolean } = {}) {
    const state = createServerState();
    let entries: Record<string, Entry<string>> = {};
    const fetch = vi.fn<(key: string, signal: AbortSignal) => Promise<string>>();
    const made = createEntries<string>(state, {
      get: () => entries,
      set: (next) => (entries = next),
      fetch,
      ...options,
    });
    return { state, made, fetch, entry: (key: string) => entries[key] };
  }

  it('serves an answer while it is fresh, then asks again, one request per key', async () => {
    const { made, fetch, entry } = setUp({ ttlMs: 30_000 });
    const answer = deferred<string>();
    fetch.mockReturnValueOnce(answer.promise);
    const first = made.load('vega');
    const second = made.load('vega');
    expect(entry('vega')).toEqual({ status: 'loading' });
    expect(fetch).toHaveBeenCalledTimes(1);
    answer.resolve('Vega');
    await Promise.all([first, second]);
    expect(entry('vega')).toMatchObject({ status: 'ready', value: 'Vega' });
    await made.load('vega');
    expect(fetch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(30_000);
    fetch.mockResolvedValueOnce('Vega again');
    await made.load('vega');
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(entry('vega')?.value).toBe('Vega again');
  });

  it('keeps a value through a failed refresh, and drops it when the server says 404', async () => {
    const { made, fetch, entry } = setUp();
    fetch.mockResolvedValueOnce('Vega');
    await made.load('vega');
    fetch.mockRejectedValueOnce(new HttpError(500, 'down'));
    await made.load('vega');
    expect(entry('vega')).toMatchObject({ status: 'ready', value: 'Vega' });
    fetch.mockRejectedValueOnce(new HttpError(404, 'gone'));
    await made.load('vega');
    expect(entry('vega')).toEqual({ status: 'missing' });
    const error = new HttpError(500, 'down');
    fetch.mockRejectedValueOnce(error);
    await made.load('lyra');
    expect(entry('lyra')).toEqual({ status: 'error', error });
  });

  it('lets a forced read overtake the one on its way, whose answer is dropped', async () => {
    const { made, fetch, entry } = setUp();
    const older = deferred<string>();
    fetch.mockReturnValueOnce(older.promise).mockResolvedValueOnce('new');
    const first = made.load('vega');
    await made.load('vega', { force: true });
    older.resolve('old');
    await first;
    expect(entry('vega')?.value).toBe('new');
  });

  it('patches a held value, and nothing that is not held', async () => {
    const { made, fetch, entry } = setUp();
    fetch.mockResolvedValueOnce('a');
    await made.load('k');
    made.patch('k', (value) => `${value}b`);
    made.patch('absent', (value) => `${value}b`);
    expect(entry('k')?.value).toBe('ab');
    expect(entry('absent')).toBeUndefined();
    made.put('other', 'given');
    expect(entry('other')).toMatchObject({ status: 'ready', value: 'given' });
  });

  it('reads what is shown again when the connection comes back, and live ones at every connect', async () => {
    const quiet = setUp();
    const live = setUp({ live: true });
    quiet.fetch.mockResolvedValue('q');
    live.fetch.mockResolvedValue('l');
    const hideQuiet = quiet.made.show('q');
    const hideLive = live.made.show('l');
    await vi.advanceTimersByTimeAsync(0);
    expect([quiet.fetch.mock.calls.length, live.fetch.mock.calls.length]).toEqual([1, 1]);
    refetchShown('connect');
    await vi.advanceTimersByTimeAsync(0);
    expect([quiet.fetch.mock.calls.length, live.fetch.mock.calls.length]).toEqual([1, 2]);
    refetchShown('online');
    await vi.advanceTimersByTimeAsync(0);
    expect([quiet.fetch.mock.calls.length, live.fetch.mock.calls.length]).toEqual([2, 3]);
    hideQuiet();
    hideLive();
    refetchShown('online');
    await vi.advanceTimersByTimeAsync(0);
    expect([quiet.fetch.mock.calls.length, live.fetch.mock.calls.length]).toEqual([2, 3]);
  });

  it('aborts the request of a key no longer shown and forgets its unanswered entry', () => {
    const { made, fetch, entry } = setUp();
    fetch.mockImplementation(
      (_key, signal) =>
        new Promise((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const first = made.show('vega');
    const second = made.show('vega');
    first();
    expect(fetch.mock.calls[0]?.[1].aborted).toBe(false);
    second();
    expect(fetch.mock.calls[0]?.[1].aborted).toBe(true);
    expect(entry('vega')).toBeUndefined();
  });

  it('writes nothing from a request that answers after the reset', async () => {
    const { state, made, fetch, entry } = setUp();
    const answer = deferred<string>();
    fetch.mockReturnValueOnce(answer.promise);
    const loading = made.load('vega');
    state.reset();
    expect(fetch.mock.calls[0]?.[1].aborted).toBe(true);
    answer.resolve('Vega');
    await loading;
    expect(entry('vega')).toEqual({ status: 'loading' });
  });
});

describe('paged lists', () => {
  const page = (items: string[], nextCursor: string | null, total?: number): Page<string> => ({
    items,
    nextCursor,
    ...(total === undefined ? {} : { total }),
  });

  function setUp(options: { keep?: boolean; hide?: (id: string) => boolean } = {}) {
    const state = createServerState();
    const lists: Record<string, PagedList<string>> = {};
    const fetch = vi.fn<(key: string, cursor: string | null) => Promise<Page<string>>>();
    const pager = createPager<string>(state, {
      read: (key) => lists[key],
      write: (key, list) => (lists[key] = list),
      fetch,
      idOf: (item) => item,
      ...options,
    });
    return { state, pager, fetch, list: (key = 'all') => lists[key] };
  }

  it('reads the first page, then the next after its cursor, one at a time', async () => {
    const { pager, fetch, list } = setUp();
    fetch.mockResolvedValueOnce(page(['a', 'b'], 'c1', 5));
    await pager.first('all');
    expect(list()).toMatchObject({
      status: 'ready',
      items: ['a', 'b'],
      nextCursor: 'c1',
      total: 5,
    });
    const next = deferred<Page<string>>();
    fetch.mockReturnValueOnce(next.promise);
    const more = pager.next('all');
    expect(list()?.more).toBe('loading');
    await expect(pager.next('all')).resolves.toBe(false);
    next.resolve(page(['b', 'c'], null, 5));
    await expect(more).resolves.toBe(true);
    expect(list()).toMatchObject({ items: ['a', 'b', 'c'], nextCursor: null, more: 'idle' });
    expect(fetch.mock.calls.map((call) => call[1])).toEqual([null, 'c1']);
    await expect(pager.next('all')).resolves.toBe(false);
  });

  it('keeps the pages read past the first when it is read again, and the list when that fails', async () => {
    const { pager, fetch, list } = setUp({ keep: true });
    fetch
      .mockResolvedValueOnce(page(['a', 'b'], 'c1', 4))
      .mockResolvedValueOnce(page(['c', 'd'], null, 4));
    await pager.first('all');
    await pager.next('all');
    fetch.mockResolvedValueOnce(page(['z', 'a'], 'c2', 5));
    await pager.first('all');
    expect(list()).toMatchObject({ items: ['z', 'a', 'b', 'c', 'd'], nextCursor: null, total: 5 });
    fetch.mockRejectedValueOnce(new HttpError(0, 'offline'));
    await pager.first('all');
    expect(list()).toMatchObject({ status: 'ready', items: ['z', 'a', 'b', 'c', 'd'] });
  });

  it('shows a failed first page instead of the list, unless told to keep it', async () => {
    const { pager, fetch, list } = setUp();
    fetch.mockResolvedValueOnce(page(['a'], null));
    await pager.first('all');
    const error = new HttpError(500, 'down');
    fetch.mockRejectedValueOnce(error);
    await pager.first('all');
    expect(list()).toMatchObject({ status: 'error', error });
  });

  it('empties a list the server answers 404 for, whatever was loaded', async () => {
    const { pager, fetch, list } = setUp({ keep: true });
    fetch.mockResolvedValueOnce(page(['a', 'b'], null));
    await pager.first('all');
    fetch.mockRejectedValueOnce(new HttpError(404, 'No such gallery.'));
    await pager.first('all');
    expect(list()).toEqual({ status: 'missing', items: [] });
  });

  it('drops an overtaken first page and a later page that no longer follows the list', async () => {
    const { pager, fetch, list } = setUp();
    fetch.mockResolvedValueOnce(page(['a'], 'c1'));
    await pager.first('all');
    const later = deferred<Page<string>>();
    const older = deferred<Page<string>>();
    fetch.mockReturnValueOnce(later.promise).mockReturnValueOnce(older.promise);
    const more = pager.next('all');
    const stale = pager.first('all');
    fetch.mockResolvedValueOnce(page(['n', 'a'], 'c9'));
    await pager.first('all');
    older.resolve(page(['old'], null));
    later.resolve(page(['b'], null));
    await Promise.all([more, stale]);
    expect(list()).toMatchObject({ items: ['n', 'a'], nextCursor: 'c9' });
  });

  it('leaves out items being removed here, and counts them out of the total', async () => {
    const { pager, fetch, list } = setUp({ hide: (id) => id === 'b' });
    fetch.mockResolvedValueOnce(page(['a', 'b', 'c'], null, 3));
    await pager.first('all');
    expect(list()).toMatchObject({ items: ['a', 'c'], total: 2 });
  });

  it('writes nothing once the state was reset', async () => {
    const { state, pager, fetch, list } = setUp();
    const answer = deferred<Page<string>>();
    fetch.mockReturnValueOnce(answer.promise);
    const loading = pager.first('all');
    state.reset();
    answer.resolve(page(['a'], null));
    await loading;
    expect(list()).toEqual({ status: 'loading', items: [] });
  });
});

describe('what is shown', () => {
  it('reads live registrations at every connect and every registration back online', () => {
    const live = vi.fn();
    const quiet = vi.fn();
    const stops = [whileShown(live, { live: true }), whileShown(quiet, { live: false })];
    refetchShown('connect');
    expect([live.mock.calls.length, quiet.mock.calls.length]).toEqual([1, 0]);
    refetchShown('online');
    expect([live.mock.calls.length, quiet.mock.calls.length]).toEqual([2, 1]);
    for (const stop of stops) stop();
    refetchShown('online');
    expect([live.mock.calls.length, quiet.mock.calls.length]).toEqual([2, 1]);
  });
});

describe('a 401', () => {
  it('is told to the listeners, from a request, an optimistic change, an entry or a page', async () => {
    const heard = vi.fn();
    const stop = onUnauthorized(heard);
    const state = createServerState();
    const refused = () => Promise.reject(new HttpError(401, 'Sign in first.'));
    await state.dedupe('k', refused).catch(() => undefined);
    await state.optimistic(() => () => undefined, refused);
    let entries: Record<string, Entry<string>> = {};
    await createEntries<string>(state, {
      get: () => entries,
      set: (next) => (entries = next),
      fetch: refused,
    }).load('k');
    await createPager<string>(state, {
      read: () => undefined,
      write: () => undefined,
      fetch: refused,
      idOf: (item) => item,
    }).first('k');
    await state
      .dedupe('other', () => Promise.reject(new HttpError(500, 'down')))
      .catch(() => undefined);
    expect(heard).toHaveBeenCalledTimes(4);
    stop();
  });
});

describe('a store of entries', () => {
  it('holds each kind apart, and empties with the member', async () => {
    const store = createEntryStore<{ names: string; counts: number }>('test-entries', {
      names: { fetch: (key) => Promise.resolve(key.toUpperCase()) },
      counts: { fetch: (key) => Promise.resolve(key.length) },
    });
    await Promise.all([store.entries.names.load('vega'), store.entries.counts.load('vega')]);
    expect(store.use.getState().names.vega?.value).toBe('VEGA');
    expect(store.use.getState().counts.vega?.value).toBe(4);
    await resetMemberState({ memberId: 'u1', ended: true });
    expect(store.use.getState()).toMatchObject({ names: {}, counts: {} });
  });
});
