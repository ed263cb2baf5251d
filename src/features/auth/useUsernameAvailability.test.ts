import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CheckUsernameResponse } from '../../contracts/auth.ts';
import { SETTINGS_USERNAME_DEBOUNCE_MS } from '../../lib/constants.ts';
import { signupAvailability } from './signupForm.ts';
import {
  type CheckUsername,
  availabilityOf,
  scheduleUsernameCheck,
  useUsernameAvailability,
  usernamePlan,
} from './useUsernameAvailability.ts';

describe('when the settings username is checked', () => {
  it.each([
    ['too short', 'ab'],
    ['too long', 'a'.repeat(21)],
    ['with a space', 'nova star'],
    ['with a symbol', 'nova!'],
  ])('not at all when it is %s', (_why, name) => expect(usernamePlan(name, 'nova')).toBe('idle'));

  it('not when it is the current name in another case', () =>
    expect(usernamePlan('NoVa', 'nova')).toBe('current'));
  it('when it differs, ignoring case', () => expect(usernamePlan('nova.2', 'nova')).toBe('check'));
  it('allows letters, digits, dot, underscore and hyphen, 3 to 20 long', () => {
    expect(usernamePlan('a.b_c-1', 'x')).toBe('check');
    expect(usernamePlan('a'.repeat(20), 'x')).toBe('check');
  });
});

describe('the availability read from an answer', () => {
  it.each<[CheckUsernameResponse, string]>([
    [{ available: true, reason: null }, 'available'],
    [{ available: true, reason: 'current' }, 'current'],
    [{ available: false, reason: 'taken' }, 'taken'],
    [{ available: false }, 'taken'],
    [{ available: false, reason: 'invalid' }, 'unknown'],
  ])('reads %j as %s', (response, expected) => expect(availabilityOf(response)).toBe(expected));
});

describe('the debounced check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks only after a 350 ms pause', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: true, reason: null });
    const onResult = vi.fn();
    scheduleUsernameCheck('orion', check, onResult);
    await vi.advanceTimersByTimeAsync(349);
    expect(check).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledWith('orion', expect.any(AbortSignal));
    expect(onResult).toHaveBeenCalledWith('available');
  });

  it('never asks when cancelled during the pause', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: true });
    const cancel = scheduleUsernameCheck('orion', check, vi.fn());
    await vi.advanceTimersByTimeAsync(200);
    cancel();
    await vi.advanceTimersByTimeAsync(1000);
    expect(check).not.toHaveBeenCalled();
  });

  it('drops the answer of a check cancelled in flight', async () => {
    let answer: (value: CheckUsernameResponse) => void = () => undefined;
    const check = vi.fn<CheckUsername>(() => new Promise((resolve) => (answer = resolve)));
    const onResult = vi.fn();
    const cancel = scheduleUsernameCheck('orion', check, onResult);
    await vi.advanceTimersByTimeAsync(350);
    cancel();
    answer({ available: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('calls a failed check unknown', async () => {
    const onResult = vi.fn();
    scheduleUsernameCheck('orion', () => Promise.reject(new Error('offline')), onResult);
    await vi.advanceTimersByTimeAsync(350);
    expect(onResult).toHaveBeenCalledWith('unknown');
  });
});

describe('the settings availability check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const render = (check: CheckUsername, username = 'nova', enabled = true) =>
    renderHook(
      ({ name, on }: { name: string; on: boolean }) =>
        useUsernameAvailability(name, check, { current: 'nova', enabled: on }),
      {
        initialProps: { name: username, on: enabled },
      },
    );

  it('is idle while Basic Info is not being edited', () => {
    const check = vi.fn<CheckUsername>();
    const { result } = render(check, 'orion', false);
    expect(result.current).toBe('idle');
  });

  it('reads Current username for the current name in any case, without asking', async () => {
    const check = vi.fn<CheckUsername>();
    const { result, rerender } = render(check);
    expect(result.current).toBe('current');
    rerender({ name: 'NOVA', on: true });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe('current');
    expect(check).not.toHaveBeenCalled();
  });

  it('is checking during the pause, then available', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: true, reason: null });
    const { result, rerender } = render(check);
    rerender({ name: 'orion', on: true });
    expect(result.current).toBe('checking');
    await act(() => vi.advanceTimersByTimeAsync(349));
    expect(check).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(result.current).toBe('available');
  });

  it('asks once for the name typed last', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: false, reason: 'taken' });
    const { result, rerender } = render(check);
    for (const name of ['o', 'or', 'ori', 'orio', 'orion']) {
      rerender({ name, on: true });
      await act(() => vi.advanceTimersByTimeAsync(100));
    }
    await act(() => vi.advanceTimersByTimeAsync(350));
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith('orion', expect.any(AbortSignal));
    expect(result.current).toBe('taken');
  });

  it('is unknown (blank) when the check fails', async () => {
    const check = vi.fn<CheckUsername>().mockRejectedValue(new Error('offline'));
    const { result, rerender } = render(check);
    rerender({ name: 'orion', on: true });
    await act(() => vi.advanceTimersByTimeAsync(350));
    expect(result.current).toBe('unknown');
  });

  it('does not ask for a name that breaks the rule', async () => {
    const check = vi.fn<CheckUsername>();
    const { result, rerender } = render(check);
    rerender({ name: 'no way', on: true });
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(result.current).toBe('idle');
    expect(check).not.toHaveBeenCalled();
  });
});

describe('the signup availability check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const signup = (name: string, check: CheckUsername) =>
    renderHook(() => signupAvailability(useUsernameAvailability(name, check)));

  it('never asks about a name that breaks the rule, so it cannot read Not available', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: false });
    const { result } = signup('ab!', check);
    await act(() => vi.advanceTimersByTimeAsync(SETTINGS_USERNAME_DEBOUNCE_MS * 2));
    expect(check).not.toHaveBeenCalled();
    expect(result.current).toBe('unknown');
  });

  it('asks about a name that keeps the rule after the pause', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: false });
    const { result } = signup('nova', check);
    expect(result.current).toBe('unknown');
    await act(() => vi.advanceTimersByTimeAsync(SETTINGS_USERNAME_DEBOUNCE_MS));
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]?.[0]).toBe('nova');
    expect(result.current).toBe('unavailable');
  });

  it('reads Available when the server says so', async () => {
    const check = vi.fn<CheckUsername>().mockResolvedValue({ available: true });
    const { result } = signup('nova', check);
    await act(() => vi.advanceTimersByTimeAsync(SETTINGS_USERNAME_DEBOUNCE_MS));
    expect(result.current).toBe('available');
  });
});
