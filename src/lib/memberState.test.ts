import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  joinMemberState,
  memberStateNames,
  memberStateSettled,
  resetMemberState,
} from './memberState.ts';

const leaving = { memberId: 'u1', ended: true };
const stops: (() => void)[] = [];
const join = (...args: Parameters<typeof joinMemberState>) => {
  const stop = joinMemberState(...args);
  stops.push(stop);
  return stop;
};
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

describe('the member-state registry', () => {
  it('empties every store that joined, each told who left', async () => {
    const first = vi.fn();
    const second = vi.fn();
    join('test-first', first);
    join('test-second', second);
    expect(memberStateNames()).toEqual(expect.arrayContaining(['test-first', 'test-second']));
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
});
