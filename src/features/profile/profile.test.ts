import { describe, expect, it } from 'vitest';
import { formatCounts, profileCounts } from './counters.ts';
import { themeForOwner, themeWordOf } from './theme.ts';

describe('themeForOwner', () => {
  it('keeps the five themes', () => {
    for (const theme of ['light', 'normal1', 'normal2', 'dark', 'custom'])
      expect(themeForOwner(theme)).toBe(theme);
  });
  it('maps the extra owner words', () => {
    expect(themeForOwner('day')).toBe('light');
    expect(themeForOwner('Light ')).toBe('light');
    expect(themeForOwner('night')).toBe('dark');
    expect(themeForOwner('DARK')).toBe('dark');
    expect(themeForOwner('normal')).toBe('normal1');
  });
  it('falls back to normal1 for anything unknown', () => {
    expect(themeForOwner('sepia')).toBe('normal1');
    expect(themeForOwner('')).toBe('normal1');
    expect(themeForOwner(undefined)).toBe('normal1');
    expect(themeForOwner(3)).toBe('normal1');
  });
  it('reads the raw word from a profile response', () => {
    expect(themeWordOf({ user: { theme: 'day' } })).toBe('day');
    expect(themeWordOf({ theme: 'night' })).toBe('night');
    expect(themeWordOf(null)).toBeUndefined();
  });
});

describe('profileCounts', () => {
  it('counts friends, posts and the likes over every photo', () => {
    const images = [{ likes: ['a', 'b'] }, { likes: [] }, { likes: ['c'] }];
    const counts = profileCounts([{}, {}], images);
    expect(counts).toEqual({ friends: 2, posts: 3, likes: 3 });
    expect(formatCounts(counts)).toBe('2 Friends • 3 Posts • 3 Likes');
  });
  it('is all zeros for a new member and tolerates missing likes', () => {
    expect(formatCounts(profileCounts([], []))).toBe('0 Friends • 0 Posts • 0 Likes');
    expect(profileCounts([], [{}, { likes: 'x' }]).likes).toBe(0);
  });
});
