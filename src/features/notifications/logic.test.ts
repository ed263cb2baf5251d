import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  badgeText,
  dedupe,
  extraSynthesised,
  loadErrorMessage,
  mergeCached,
  mergeNotifications,
  relativeTime,
  sortNewest,
  synthesise,
  unreadDisplay,
} from './logic.ts';
import { note, request } from '../../test/notifications.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('synthesise', () => {
  it('makes a friend_request notification exactly as docs/product.md "Notification state" says', () => {
    expect(synthesise(request())).toEqual({
      id: 'fr:u1:u2',
      type: 'friend_request',
      actor: { id: 'u1', username: 'alice', profileImage: '/a.png' },
      message: ' sent you a friend request',
      link: '/profile/alice',
      createdAt: '2026-01-01T10:00:00.000Z',
      read: false,
      requestId: 'u1:u2',
    });
  });
});

describe('merge and de-duplication', () => {
  const serverRequest = note({
    id: '7',
    type: 'friend_request',
    actor: { id: 'u1', username: 'alice', profileImage: '/a.png' },
    message: ' sent you a friend request',
    link: '/profile/alice',
    createdAt: '2026-01-01T10:00:00.500Z',
    requestId: 'u1:u2',
    read: true,
  });

  it('drops a duplicate by id, keeping the first', () => {
    const first = note({ id: '3', message: 'first' });
    expect(dedupe([first, note({ id: '3', message: 'second' })])).toEqual([first]);
  });

  it('drops a duplicate by type + requestId + actor id + link', () => {
    const merged = mergeNotifications([serverRequest], [synthesise(request())]);
    expect(merged).toEqual([serverRequest]);
  });

  it('keeps items that differ in any one of type, requestId, actor or link', () => {
    const synth = synthesise(request());
    const others = [
      { ...synth, id: 'a', type: 'follow' as const },
      { ...synth, id: 'b', requestId: 'other' },
      { ...synth, id: 'c', actor: { id: 'u9', username: 'alice', profileImage: '' } },
      { ...synth, id: 'd', link: '/profile/someone' },
    ];
    expect(dedupe([synth, ...others])).toHaveLength(5);
  });

  it('adds synthesised items the server does not hold, and counts only those as extra', () => {
    const fresh = synthesise(
      request({
        requestId: 'u3:u2',
        fromUserId: 'u3',
        user: { ...request().user, id: 'u3', username: 'carol' },
      }),
    );
    const merged = mergeNotifications([serverRequest], [synthesise(request()), fresh]);
    expect(merged.map((item) => item.id)).toEqual(['7', 'fr:u3:u2']);
    expect(extraSynthesised([serverRequest], [synthesise(request()), fresh])).toEqual([fresh]);
  });

  it('keeps the read flag of cached items still pending and forgets answered ones', () => {
    const cached = [
      { ...synthesise(request()), read: true },
      synthesise(request({ requestId: 'gone' })),
    ];
    const fresh = [synthesise(request())];
    expect(mergeCached(cached, fresh)).toEqual([{ ...fresh[0], read: true }]);
  });
});

describe('sortNewest', () => {
  it('puts the newest first, ties broken by the larger id', () => {
    const older = note({ id: '1', createdAt: '2026-01-01T08:00:00.000Z' });
    const newer = note({ id: '2', createdAt: '2026-01-02T08:00:00.000Z' });
    const tieLow = note({ id: '5', createdAt: '2026-01-03T08:00:00.000Z' });
    const tieHigh = note({ id: '6', createdAt: '2026-01-03T08:00:00.000Z' });
    expect(sortNewest([older, tieLow, newer, tieHigh]).map((item) => item.id)).toEqual([
      '6',
      '5',
      '2',
      '1',
    ]);
  });
});

describe('badge and unread display', () => {
  it('adds unread and incoming, caps at 99+', () => {
    expect(badgeText(0, 0)).toBe('');
    expect(badgeText(2, 1)).toBe('3');
    expect(badgeText(99, 0)).toBe('99');
    expect(badgeText(98, 1)).toBe('99');
    expect(badgeText(100, 0)).toBe('99+');
    expect(badgeText(60, 40)).toBe('99+');
    // One unread request notification and its incoming request count once.
    expect(badgeText(2, 1, 1)).toBe('2');
  });

  it("shows '50+' at 51 or more", () => {
    expect(unreadDisplay(0)).toBe('0');
    expect(unreadDisplay(50)).toBe('50');
    expect(unreadDisplay(51)).toBe('50+');
    expect(unreadDisplay(500)).toBe('50+');
  });
});

describe('relativeTime', () => {
  const created = '2026-03-01T12:00:00.000Z';
  const at = (ms: number) => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse(created) + ms);
    return relativeTime(created);
  };
  const s = 1000;
  const m = 60 * s;
  const h = 60 * m;
  const d = 24 * h;

  it('follows the §2.7 boundaries', () => {
    expect(at(0)).toBe('0s ago');
    expect(at(42 * s)).toBe('42s ago');
    expect(at(59 * s)).toBe('59s ago');
    expect(at(60 * s)).toBe('1m ago');
    expect(at(59 * m)).toBe('59m ago');
    expect(at(59 * m + 59 * s)).toBe('59m ago');
    expect(at(60 * m)).toBe('1h ago');
    expect(at(23 * h)).toBe('23h ago');
    expect(at(24 * h)).toBe('1d ago');
    expect(at(6 * d)).toBe('6d ago');
    expect(at(7 * d - s)).toBe('6d ago');
  });

  it('shows a full locale date-time from 7 days', () => {
    expect(at(7 * d)).toBe(new Date(created).toLocaleString());
  });

  it('never shows a negative age for a clock a little behind', () => {
    expect(at(-5 * s)).toBe('0s ago');
  });
});

describe('loadErrorMessage', () => {
  it("quotes the server, else 'Failed to load' when there is no body", () => {
    expect(loadErrorMessage({ status: 500, serverMessage: 'Boom', body: '{"error":"Boom"}' })).toBe(
      'Boom',
    );
    expect(loadErrorMessage({ status: 500, serverMessage: null, body: '' })).toBe('Failed to load');
    expect(loadErrorMessage(new Error('Network down'))).toBe('Network down');
    expect(loadErrorMessage(null)).toBe('Failed to load');
  });
});
