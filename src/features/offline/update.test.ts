import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RELOAD_GUARD_KEY, RELOAD_GUARD_MS, reloadOnChunkFailure, reloadOnce } from './update.ts';

beforeEach(() => sessionStorage.clear());

describe('reloading for a new version', () => {
  it('reloads and remembers when', () => {
    const location = { reload: vi.fn() };
    expect(reloadOnce(location, sessionStorage, 1_000_000)).toBe(true);
    expect(location.reload).toHaveBeenCalledTimes(1);
    expect(sessionStorage.getItem(RELOAD_GUARD_KEY)).toBe('1000000');
  });

  it('does not reload again moments later, so a broken version cannot loop', () => {
    const location = { reload: vi.fn() };
    reloadOnce(location, sessionStorage, 1_000_000);
    expect(reloadOnce(location, sessionStorage, 1_000_000 + RELOAD_GUARD_MS - 1)).toBe(false);
    expect(location.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads again for a later version', () => {
    const location = { reload: vi.fn() };
    reloadOnce(location, sessionStorage, 1_000_000);
    expect(reloadOnce(location, sessionStorage, 1_000_000 + RELOAD_GUARD_MS)).toBe(true);
    expect(location.reload).toHaveBeenCalledTimes(2);
  });

  it('reloads once when a part of the app fails to load', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const page = Object.assign(new EventTarget(), {
      location: { reload: vi.fn() },
      sessionStorage,
    });
    const stop = reloadOnChunkFailure(page as unknown as Window);
    page.dispatchEvent(new Event('vite:preloadError'));
    page.dispatchEvent(new Event('vite:preloadError'));
    expect(page.location.reload).toHaveBeenCalledTimes(1);
    stop();
  });
});
