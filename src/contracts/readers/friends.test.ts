import { describe, expect, it } from 'vitest';
import { readFriendItem, readFriendList, readSearch, readSearchRow } from './friends.ts';

describe('reading friend lists and search rows (docs/decisions.md "One canonical shape")', () => {
  it('keeps the canonical list entry as it is', () => {
    const entry = {
      requestId: 'u1:u2',
      user: { id: 'u1', username: 'ada', fullName: 'Ada L', profileImage: '/uploads/a.webp' },
      fromUserId: 'u1',
      toUserId: 'u2',
      createdAt: '2026-01-01T00:00:00.000Z',
    };

    expect(readFriendItem(entry)).toEqual(entry);
  });

  it('still reads a flat entry with only _id, as other servers send it, into the canonical shape', () => {
    const entry = readFriendItem({ _id: 'u7', username: 'vega', profileImage: '/v.png' });

    expect(entry).toEqual({
      requestId: 'u7',
      user: { id: 'u7', username: 'vega', fullName: '', profileImage: '/v.png' },
      fromUserId: '',
      toUserId: '',
      createdAt: '',
    });
  });

  it('reads a nested user named by _id under id', () => {
    const entry = readFriendItem({ requestId: 'r1', user: { _id: 'u8', username: 'lyra' } });

    expect(entry.user).toEqual({ id: 'u8', username: 'lyra', fullName: '', profileImage: '' });
  });

  it('reads a list as an array, {results} or {items}', () => {
    const item = { requestId: 'r1', user: { id: 'u1', username: 'ada' } };
    for (const body of [[item], { results: [item] }, { items: [item] }]) {
      expect(readFriendList(body).map((entry) => entry.user.id)).toEqual(['u1']);
    }
  });

  it('reads a search row with its flags, under id only', () => {
    const unset = {
      fullName: '',
      profileImage: '',
      isFriend: false,
      requestPending: false,
      incomingPending: false,
    };
    const row = { ...unset, id: 'u3', username: 'orion', isFriend: true };

    expect(readSearchRow(row)).toEqual(row);
    expect(readSearchRow({ _id: 'u4', username: 'lyra' })).toEqual({
      ...unset,
      id: 'u4',
      username: 'lyra',
    });
    expect(readSearch({ users: [{ _id: 'u5', username: 'vega' }] })[0]?.id).toBe('u5');
  });
});
