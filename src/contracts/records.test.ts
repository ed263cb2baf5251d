import { describe, expect, it } from 'vitest';
import { isPushPayload } from './pushPayload.ts';
import { readMediaUsageRecord } from './offline.ts';
import { mismatch } from './records.ts';

const payload = {
  id: 7,
  kind: 'friend_request',
  requestId: 'a:b',
  actor: { id: 'b', username: 'bob', profileImage: '' },
  url: '/profile/bob',
  unread: 1,
  createdAt: '2026-11-28T10:00:00.000Z',
};

describe('the record checks', () => {
  it('accept a push payload as the server makes it, extra fields and all', () => {
    expect(isPushPayload({ ...payload, extra: true })).toBe(true);
    expect(mismatch(isPushPayload, payload)).toBeNull();
  });

  it.each([
    [{ ...payload, id: -1 }, 'id'],
    [{ ...payload, id: 1.5 }, 'id'],
    [{ ...payload, kind: 'follow' }, 'kind'],
    [{ ...payload, requestId: '' }, 'requestId'],
    [{ ...payload, actor: { ...payload.actor, username: '' } }, 'actor.username'],
    [{ ...payload, actor: null }, 'actor'],
    [{ ...payload, url: '//evil.example' }, 'url'],
    [{ ...payload, url: '/\\evil.example' }, 'url'],
    [{ ...payload, unread: '1' }, 'unread'],
    ['{}', ''],
  ])('refuse %j, naming %s', (value, where) => {
    expect(isPushPayload(value)).toBe(false);
    expect(mismatch(isPushPayload, value)).toBe(where);
  });

  it('read a stored record only when every field fits', () => {
    expect(readMediaUsageRecord({ userId: 'a', files: 1, bytes: 2 })).toEqual({
      userId: 'a',
      files: 1,
      bytes: 2,
    });
    expect(readMediaUsageRecord({ userId: 'a', files: Number.NaN, bytes: 2 })).toBeNull();
    expect(readMediaUsageRecord(undefined)).toBeNull();
  });
});
