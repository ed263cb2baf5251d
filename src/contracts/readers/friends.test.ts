import { describe, expect, it } from 'vitest';
import { friendItemView, searchRowView } from './friends.ts';

describe('reading friend lists and search rows (docs/decisions.md "One canonical shape")', () => {
  it('fills the view from the canonical list entry', () => {
    const view = friendItemView({
      requestId: 'u1:u2',
      user: { id: 'u1', username: 'ada', fullName: 'Ada L', profileImage: '/uploads/a.webp' },
      fromUserId: 'u1',
      toUserId: 'u2',
      createdAt: '2026-01-01T00:00:00.000Z',
    });

    expect(view).toEqual({
      _id: 'u1:u2',
      requestId: 'u1:u2',
      user: {
        _id: 'u1',
        id: 'u1',
        username: 'ada',
        fullName: 'Ada L',
        profileImage: '/uploads/a.webp',
      },
      fromUserId: 'u1',
      toUserId: 'u2',
      username: 'ada',
      profileImage: '/uploads/a.webp',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });

  it('still reads a flat entry with only _id, as other servers send it', () => {
    const view = friendItemView({ _id: 'u7', username: 'vega', profileImage: '/v.png' });

    expect(view.user).toMatchObject({ id: 'u7', _id: 'u7', username: 'vega' });
    expect(view.requestId).toBe('u7');
    expect(view.profileImage).toBe('/v.png');
  });

  it('gives a search row both id names and reads its flags', () => {
    const row = {
      id: 'u3',
      username: 'orion',
      fullName: '',
      profileImage: '',
      isFriend: true,
      requestPending: false,
      incomingPending: false,
    };

    expect(searchRowView(row)).toEqual({ _id: 'u3', ...row });
    expect(searchRowView({ _id: 'u4', username: 'lyra' })).toMatchObject({
      _id: 'u4',
      id: 'u4',
      isFriend: false,
    });
  });
});
