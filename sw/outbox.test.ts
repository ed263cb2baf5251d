import { describe, expect, it, vi } from 'vitest';
import type { OutboxResult } from '../src/contracts/constants.ts';
import { isOutboxCall, replay } from './outbox.ts';

// Workbox reads the worker's global scope as it loads: Node's global stands in for it.
vi.hoisted(() => {
  Object.assign(globalThis, { self: globalThis, __WB_DISABLE_DEV_LOGS: true });
});

const ORIGIN = 'https://orbit.test';
const keyed = (method: string, path: string, origin = ORIGIN, key: string | null = 'k1') =>
  new Request(new URL(path, origin), {
    method,
    headers: key ? { 'Idempotency-Key': key } : {},
    ...(method === 'GET' ? {} : { body: '{}' }),
  });

describe('outbox calls', () => {
  it('are the marked writes on this origin that name their action', () => {
    expect(isOutboxCall(keyed('PATCH', '/api/gallery/p1'), ORIGIN)).toBe(true);
    expect(isOutboxCall(keyed('POST', '/api/gallery'), ORIGIN)).toBe(true);
    expect(isOutboxCall(keyed('POST', '/api/users/friends/accept'), ORIGIN)).toBe(true);
  });

  it('leave out reads, other writes, other origins and a write without a key', () => {
    expect(isOutboxCall(keyed('GET', '/api/gallery/p1'), ORIGIN)).toBe(false);
    expect(isOutboxCall(keyed('DELETE', '/api/gallery/p1'), ORIGIN)).toBe(false);
    expect(isOutboxCall(keyed('PATCH', '/api/gallery/p1', 'https://other.test'), ORIGIN)).toBe(
      false,
    );
    expect(isOutboxCall(keyed('PATCH', '/api/gallery/p1', ORIGIN, null), ORIGIN)).toBe(false);
  });
});

interface Entry {
  request: Request;
  metadata: { key: string };
}

/** A queue as workbox's keeps it: shift from the head, unshift back onto it. */
function queueOf(keys: string[]) {
  const entries: Entry[] = keys.map((key) => ({
    request: keyed('PATCH', `/api/gallery/${key}`, ORIGIN, key),
    metadata: { key },
  }));
  return {
    entries,
    shiftRequest: () => Promise.resolve(entries.shift()),
    unshiftRequest: (entry: Entry) => {
      entries.unshift(entry);
      return Promise.resolve();
    },
  };
}

describe('the replay', () => {
  it('sends in order and tells each result, refusals with the server’s words', async () => {
    const queue = queueOf(['a', 'b', 'c']);
    const sent: string[] = [];
    const posted: OutboxResult[] = [];
    await replay(
      queue,
      (message) => {
        posted.push(message);
        return Promise.resolve();
      },
      (request) => {
        sent.push(request.headers.get('Idempotency-Key') ?? '');
        return Promise.resolve(
          request.url.endsWith('/b')
            ? Response.json({ error: 'This photo was deleted.' }, { status: 404 })
            : new Response(null, { status: 204 }),
        );
      },
    );
    expect(sent).toEqual(['a', 'b', 'c']);
    expect(posted).toEqual([
      { type: 'outbox', key: 'a', result: 'sent' },
      { type: 'outbox', key: 'b', result: 'refused', error: 'This photo was deleted.' },
      { type: 'outbox', key: 'c', result: 'sent' },
    ]);
    expect(queue.entries).toEqual([]);
  });

  it('still offline: puts the item back at the head, sends nothing after it and throws', async () => {
    const queue = queueOf(['a', 'b', 'c']);
    const sent: string[] = [];
    const posted: OutboxResult[] = [];
    await expect(
      replay(
        queue as never,
        (message) => {
          posted.push(message);
          return Promise.resolve();
        },
        (request) => {
          const key = request.headers.get('Idempotency-Key') ?? '';
          sent.push(key);
          return key === 'b'
            ? Promise.reject(new TypeError('Failed to fetch'))
            : Promise.resolve(new Response(null, { status: 204 }));
        },
      ),
    ).rejects.toThrow();
    expect(sent).toEqual(['a', 'b']);
    expect(posted.map((message) => [message.key, message.result])).toEqual([
      ['a', 'sent'],
      ['b', 'waiting'],
    ]);
    expect(queue.entries.map((entry) => entry.metadata.key)).toEqual(['b', 'c']);
  });

  it('a server error keeps the item for later too', async () => {
    const queue = queueOf(['a']);
    await expect(
      replay(
        queue as never,
        () => Promise.resolve(),
        () => Promise.resolve(new Response(null, { status: 503 })),
      ),
    ).rejects.toThrow();
    expect(queue.entries.map((entry) => entry.metadata.key)).toEqual(['a']);
  });
});
