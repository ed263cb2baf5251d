import { describe, expect, it } from 'vitest';
import { CAPTION_MAX } from '../contracts/gallery.ts';
import { TEXT_LIMITS } from '../contracts/validation.ts';
import { charactersLeft, isNearLimit } from './charCount.ts';

describe('isNearLimit', () => {
  it('stays hidden below 80 % of the limit and shows from it on', () => {
    expect(isNearLimit(39, 50)).toBe(false);
    expect(isNearLimit(40, 50)).toBe(true);
    expect(isNearLimit(50, 50)).toBe(true);
  });
  it('rounds the threshold up for limits that do not divide evenly', () => {
    expect(isNearLimit(223, TEXT_LIMITS.favoriteQuote.max)).toBe(false);
    expect(isNearLimit(224, TEXT_LIMITS.favoriteQuote.max)).toBe(true);
    expect(isNearLimit(399, CAPTION_MAX)).toBe(false);
    expect(isNearLimit(400, CAPTION_MAX)).toBe(true);
  });
  it('never shows for an empty field', () => {
    expect(isNearLimit(0, 1)).toBe(false);
  });
});

describe('charactersLeft', () => {
  it('counts down to zero in words that agree in number', () => {
    expect(charactersLeft(40, 50)).toBe('10 characters left');
    expect(charactersLeft(49, 50)).toBe('1 character left');
    expect(charactersLeft(50, 50)).toBe('0 characters left');
  });
  it('never goes below zero for a stored value longer than today’s limit', () => {
    expect(charactersLeft(60, 50)).toBe('0 characters left');
  });
});
