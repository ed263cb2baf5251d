import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type MemberState,
  joinMemberState,
  leaveMemberState,
  memberStateSettled,
  resetMemberState,
} from './memberState.ts';

const leaving = { memberId: 'u1', ended: true };
const stops: (() => void)[] = [];
const join = (name: string, store: MemberState | MemberState['reset']) => {
  const stop = joinMemberState(name, typeof store === 'function' ? { reset: store } : store);
  stops.push(stop);
  return stop;
};
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

describe('the member-state registry', () => {
  it('empties every store that joined, each told who left', async () => {
    const first = vi.fn();
    const second = vi.fn();
    join('test-first', first);
    join('test-second', second);
    await resetMemberState(leaving);
    expect(first).toHaveBeenCalledWith(leaving);
    expect(second).toHaveBeenCalledWith(leaving);
  });

  it('empties the synchronous stores at once, before the call returns', () => {
    const reset = vi.fn();
    join('test-sync', reset);
    void resetMemberState(leaving);
    expect(reset).toHaveBeenCalledTimes(1);
  });

  it('forgets a store that left, and keeps one entry per name', async () => {
    const gone = vi.fn();
    const older = vi.fn();
    const newer = vi.fn();
    join('test-gone', gone)();
    join('test-name', older);
    join('test-name', newer);
    await resetMemberState(leaving);
    expect(gone).not.toHaveBeenCalled();
    expect(older).not.toHaveBeenCalled();
    expect(newer).toHaveBeenCalledTimes(1);
  });

  it('still empties the others when one fails, and settles once the slowest is done', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let finish: () => void = () => undefined;
    const slow = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const other = vi.fn();
    join('test-broken', () => {
      throw new Error('broken');
    });
    join('test-rejects', () => Promise.reject(new Error('rejected')));
    join('test-slow', slow);
    join('test-other', other);
    let settled = false;
    void resetMemberState(leaving);
    void memberStateSettled().then(() => (settled = true));
    await Promise.resolve();
    expect(other).toHaveBeenCalledTimes(1);
    expect(settled).toBe(false);
    finish();
    await vi.waitFor(() => expect(settled).toBe(true));
    expect(console.warn).toHaveBeenCalledTimes(2);
  });

  it('runs each store’s work before a logout, and waits for it 3 s at most', async () => {
    vi.useFakeTimers();
    const forget = vi.fn(() => new Promise<void>(() => undefined));
    const reset = vi.fn();
    join('test-push', { beforeLogout: forget, reset });
    join('test-plain', () => undefined);
    let done = false;
    void leaveMemberState('u1').then(() => (done = true));
    expect(forget).toHaveBeenCalledWith('u1');
    expect(reset).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2_999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
