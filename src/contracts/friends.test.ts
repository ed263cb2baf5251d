import { describe, expect, it } from 'vitest';
import { normaliseFriendStatus, pairKey } from './friends.ts';

describe('friend status words', () => {
  it.each([
    ['friend', 'friends'],
    ['friends', 'friends'],
    ['received', 'incoming'],
    ['incoming', 'incoming'],
    ['sent', 'pending'],
    ['requested', 'pending'],
    ['pending', 'pending'],
    ['self', 'self'],
    ['none', 'none'],
    ['FRIENDS', 'friends'],
    ['blocked', 'none'],
    [undefined, 'none'],
    [42, 'none'],
  ])('reads %s as %s', (word, status) => expect(normaliseFriendStatus(word)).toBe(status));
});

describe('pair keys', () => {
  it('is the same whichever member asks', () => expect(pairKey('b', 'a')).toBe(pairKey('a', 'b')));
  it('joins the sorted ids with a colon', () => expect(pairKey('zed', 'amy')).toBe('amy:zed'));
});
