import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_USERNAME_DEBOUNCE_MS } from '../../contracts/constants.ts';
import { authApi } from './api.ts';
import { useUsernameAvailability } from './useUsernameAvailability.ts';

describe('the signup availability check', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('never asks about a name that breaks the rule, so it cannot read Not available', async () => {
    const check = vi.spyOn(authApi, 'checkUsername').mockResolvedValue({ available: false });
    const { result } = renderHook(() => useUsernameAvailability('ab!'));
    await act(() => vi.advanceTimersByTimeAsync(SETTINGS_USERNAME_DEBOUNCE_MS * 2));
    expect(check).not.toHaveBeenCalled();
    expect(result.current).toBe('unknown');
  });

  it('asks about a name that keeps the rule after the pause', async () => {
    const check = vi.spyOn(authApi, 'checkUsername').mockResolvedValue({ available: false });
    const { result } = renderHook(() => useUsernameAvailability('nova'));
    await act(() => vi.advanceTimersByTimeAsync(SETTINGS_USERNAME_DEBOUNCE_MS));
    expect(check).toHaveBeenCalledTimes(1);
    expect(check.mock.calls[0]?.[0]).toBe('nova');
    expect(result.current).toBe('unavailable');
  });
});
