import { afterEach, describe, expect, it } from 'vitest';
import { preloadAvatar, profileRoute } from './warmRoute.ts';

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
