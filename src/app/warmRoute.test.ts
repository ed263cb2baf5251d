import { act, cleanup, render, screen } from '@testing-library/react';
import { type ComponentType, Suspense, createElement } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_SOURCES } from '../contracts/constants.ts';
import {
  FIRST_SCREEN_CODE,
  lazyWarm,
  preloadAvatar,
  profileRoute,
  warmImport,
} from './warmRoute.ts';

describe('the route a start warms', () => {
  it('names the profile a path shows: its owner, or "" for one\'s own', () => {
    const named = {
      '/profile/nova': 'nova',
      '/profile/nova/': 'nova',
      '/profile/a.b': 'a.b',
      '/profile/n%C3%B6va': 'növa',
      '/profile': '',
    };
    for (const [path, owner] of Object.entries(named)) expect(profileRoute(path)).toBe(owner);
  });

  it('warms nothing on other routes or a broken address', () => {
    for (const path of [
      '/',
      '/landing',
      '/settings',
      '/profile/a/b',
      '/profiles/x',
      '/profile/%E0',
    ])
      expect(profileRoute(path), path).toBeNull();
  });

  it("loads each first screen's own modules: those its document names", async () => {
    for (const [route, sources] of Object.entries(FIRST_SCREEN_SOURCES)) {
      const loaded = await FIRST_SCREEN_CODE[route as keyof typeof FIRST_SCREEN_CODE]();
      const named = await Promise.all(sources.map((source) => import(`../../${source}`)));
      expect(named, route).toContain(loaded);
    }
  });
});

describe('the avatar preload', () => {
  afterEach(() => {
    for (const link of document.head.querySelectorAll('link')) link.remove();
  });

  it('asks for the picture at high priority, once per address', () => {
    preloadAvatar('/uploads/avatars/abc.webp?v=2');
    preloadAvatar('/uploads/avatars/abc.webp?v=2');
    const links = document.head.querySelectorAll<HTMLLinkElement>('link[rel="preload"]');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('/uploads/avatars/abc.webp?v=2');
    expect(links[0]?.as).toBe('image');
    expect(links[0]?.getAttribute('fetchpriority') ?? links[0]?.fetchPriority).toBe('high');
  });

  it('adds nothing without an address', () => {
    preloadAvatar('');
    expect(document.head.querySelectorAll('link')).toHaveLength(0);
  });
});

describe('a route whose code the start loaded', () => {
  afterEach(cleanup);

  const page = () => Promise.resolve({ Page: () => createElement('h1', null, 'The page') });
  const inSuspense = (Component: ComponentType) =>
    createElement(
      Suspense,
      { fallback: createElement('p', null, 'Loading…') },
      createElement(Component),
    );

  it('renders at once, without its fallback, when its chunk has arrived', async () => {
    const load = warmImport(page);
    await load();
    const Lazy = lazyWarm(load, (module) => module.Page);
    render(inSuspense(Lazy));
    expect(screen.getByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('shows the fallback until a chunk not loaded yet arrives', async () => {
    const load = warmImport(page);
    expect(load.loaded()).toBeUndefined();
    const Lazy = lazyWarm(load, (module) => module.Page);
    render(inSuspense(Lazy));
    expect(screen.getByText('Loading…')).toBeTruthy();
    await act(async () => {
      await load();
    });
    expect(await screen.findByRole('heading', { name: 'The page' })).toBeTruthy();
    expect(load.loaded()).toBeDefined();
  });
});
