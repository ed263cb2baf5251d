import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FriendEventPayload } from '../contracts/realtime.ts';
import { parsingListener } from './socket.ts';

const request: FriendEventPayload = { fromUserId: 'u-alice', toUserId: 'u-bob', pairKey: 'p-1' };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a socket event off the wire', () => {
  it('reaches its handler when it fits the event’s schema, without fields it does not know', () => {
    const received: FriendEventPayload[] = [];
    const listener = parsingListener('friend:request:created', (payload) => received.push(payload));
    listener({ ...request, extra: 'ignored' });
    expect(received).toEqual([request]);
  });

  it('is dropped with a warning when it does not fit: the next event arrives alone', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const received: unknown[] = [];
    const listener = parsingListener('presence:update', (payload) => received.push(payload));
    listener({ userId: 'u-alice', online: 'yes' });
    listener({ userId: 'u-bob', online: true });
    expect(received).toEqual([{ userId: 'u-bob', online: true }]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('Dropped a presence:update event that does not fit');
  });

  it('checks every event by its own schema', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const received: unknown[] = [];
    const listener = parsingListener('notification:changed', (payload) => received.push(payload));
    listener({ read: 'some', unread: 1 });
    listener({ read: 'all', unread: 0 });
    expect(received).toEqual([{ read: 'all', unread: 0 }]);
  });
});
