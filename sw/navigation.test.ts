import { describe, expect, it, vi } from 'vitest';
import { serveAppShell } from './navigation.ts';

const page = (text: string) => new Response(text, { headers: { 'Content-Type': 'text/html' } });

describe('the app shell', () => {
  it('comes from the precache even when the network has a preload ready', async () => {
    const fetch = vi.fn(() => Promise.resolve(page('network')));
    const response = await serveAppShell({
      precached: () => Promise.resolve(page('precached')),
      preloaded: () => Promise.resolve(page('preloaded')),
      fetch,
    });
    expect(await response.text()).toBe('precached');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('falls back to the navigation preload when the precache lost it', async () => {
    const response = await serveAppShell({
      precached: () => Promise.resolve(undefined),
      preloaded: () => Promise.resolve(page('preloaded')),
      fetch: () => Promise.resolve(page('network')),
    });
    expect(await response.text()).toBe('preloaded');
  });

  it('falls back to the network without a preload, or when the preload failed', async () => {
    for (const preloaded of [
      () => Promise.resolve(undefined),
      () => Promise.reject(new TypeError('Failed to fetch')),
    ]) {
      const response = await serveAppShell({
        precached: () => Promise.resolve(undefined),
        preloaded,
        fetch: () => Promise.resolve(page('network')),
      });
      expect(await response.text()).toBe('network');
    }
  });
});
