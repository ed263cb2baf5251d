import { describe, expect, it } from 'vitest';
import { countOf } from '../../lib/words.ts';
import { formatCounts, profileCounts } from './counters.ts';
import { themeWordOf } from '../../contracts/readers/user.ts';
import { themeForOwner } from './theme.ts';

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

describe('countOf', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(countOf(1, 'Friend', 'Friends')).toBe('1 Friend');
    expect(countOf(0, 'Friend', 'Friends')).toBe('0 Friends');
    expect(countOf(2, 'Friend', 'Friends')).toBe('2 Friends');
  });
});

describe('formatCounts', () => {
  it('says one of each in the singular', () => {
    expect(formatCounts({ friends: 1, posts: 1, likes: 1 })).toBe('1 Friend • 1 Post • 1 Like');
  });
  it('agrees in number for each counter on its own', () => {
    expect(formatCounts({ friends: 2, posts: 1, likes: 0 })).toBe('2 Friends • 1 Post • 0 Likes');
    expect(formatCounts({ friends: 1, posts: 11, likes: 21 })).toBe(
      '1 Friend • 11 Posts • 21 Likes',
    );
  });
});
