import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../lib/constants.ts';
import { nextTheme, resolveTheme } from './resolve.ts';
import { useTheme } from './store.ts';

describe('theme load order', () => {
  it("takes the server's theme first", () =>
    expect(resolveTheme({ server: 'dark', perUser: 'light', last: 'custom' })).toBe('dark'));
  it("takes the member's saved theme when the server has none", () =>
    expect(resolveTheme({ server: undefined, perUser: 'light', last: 'custom' })).toBe('light'));
  it('takes the last saved theme next', () =>
    expect(resolveTheme({ server: null, perUser: null, last: 'custom' })).toBe('custom'));
  it('defaults to normal1', () =>
    expect(resolveTheme({ server: null, perUser: null, last: null })).toBe('normal1'));
  it('falls back to normal1 for an unknown value', () =>
    expect(resolveTheme({ server: 'neon', perUser: 'light', last: null })).toBe('normal1'));
});

describe('theme toggle', () => {
  it('cycles light → normal1 → dark → light', () => {
    expect(nextTheme('light')).toBe('normal1');
    expect(nextTheme('normal1')).toBe('dark');
    expect(nextTheme('dark')).toBe('light');
  });
  it('starts the cycle again from a theme outside it', () =>
    expect(nextTheme('normal2')).toBe('light'));
});

describe('theme store', () => {
  beforeEach(() => {
    localStorage.clear();
    useTheme.setState({ theme: 'normal1', userId: null });
  });

  it('applies the theme to the page and saves it locally and to the server', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response('{}', { status: 200 })));
    vi.stubGlobal('fetch', fetchMock);
    useTheme.getState().loadFor({ id: 'u1', theme: 'light' });
    useTheme.getState().toggle();
    expect(document.documentElement.dataset.theme).toBe('normal1');
    expect(localStorage.getItem(STORAGE_KEYS.themeFor('u1'))).toBe('normal1');
    expect(localStorage.getItem(STORAGE_KEYS.lastTheme)).toBe('normal1');
    // The server draws the landing page's first screen in it (docs/architecture.md).
    expect(document.cookie).toContain('orbit-theme=normal1');
    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        expect.stringContaining('/api/users/theme'),
        expect.objectContaining({ method: 'PUT', body: JSON.stringify({ theme: 'normal1' }) }),
      ),
    );
    vi.unstubAllGlobals();
  });

  it('only warns when the server cannot save', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('offline'))),
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    useTheme.getState().loadFor({ id: 'u1', theme: 'dark' });
    useTheme.getState().toggle();
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    expect(useTheme.getState().theme).toBe('light');
    vi.unstubAllGlobals();
  });
});
