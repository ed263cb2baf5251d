import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createServerState, createThrottle } from './serverState.ts';

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
