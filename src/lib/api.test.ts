import { afterEach, describe, expect, it, vi } from 'vitest';
import { galleryDelete, galleryPatch } from '../contracts/endpoints/gallery.ts';
import { OFFLINE_HEADER, QUEUED_WORDS } from '../contracts/constants.ts';
import { api } from './api.ts';
import { HttpError } from './http.ts';

const keyOf = (fetchMock: ReturnType<typeof vi.fn>, call: number) =>
  ((fetchMock.mock.calls[call]?.[1] as RequestInit).headers as Record<string, string>)[
    'Idempotency-Key'
  ];

describe('api() and the offline outbox', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names each action of an outbox call with its own key, and no other call', async () => {
    const fetchMock = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(new Response(null, { status: 204 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const patch = { params: { ref: 'p1' }, body: { caption: 'Sea' } } as const;
    await api(galleryPatch, patch).catch(() => undefined);
    await api(galleryPatch, patch).catch(() => undefined);
    await api(galleryDelete, { params: { ref: 'p1' } }).catch(() => undefined);
    const first = keyOf(fetchMock, 0);
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(fetchMock, 1)).toMatch(/^[0-9a-f-]{36}$/);
    expect(keyOf(fetchMock, 1)).not.toBe(first);
    expect(keyOf(fetchMock, 2)).toBeUndefined();
  });

  it('fails a write the worker kept for later with status 202 and its words', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ error: QUEUED_WORDS }), {
            status: 202,
            headers: { [OFFLINE_HEADER]: '1' },
          }),
        ),
      ),
    );
    const failure = await api(galleryPatch, {
      params: { ref: 'p1' },
      body: { caption: 'Sea' },
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 202, message: 'Waiting to send' });
  });
});
