import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError, http } from './http.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('the HTTP client', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends the stored token as a bearer and includes cookies', async () => {
    localStorage.setItem('token', 'abc');
    const fetchMock = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(json(200, { ok: true })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await http.get('/api/auth/me');
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });

  it('reads authToken from session storage too', async () => {
    sessionStorage.setItem('authToken', 'xyz');
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(json(200, {})));
    vi.stubGlobal('fetch', fetchMock);
    await http.get('/api/x');
    expect((fetchMock.mock.calls[0]?.[1].headers as Record<string, string>).Authorization).toBe(
      'Bearer xyz',
    );
  });

  it('after a 401 on a GET bridges the cookie to a token, stores it and retries once', async () => {
    const responses = [
      json(401, { error: 'Please sign in.' }),
      json(200, { token: 'fresh' }),
      json(200, { user: 1 }),
    ];
    const fetchMock = vi.fn((_url: string, _init: RequestInit) =>
      Promise.resolve(responses.shift() as Response),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(http.get('/api/auth/me')).resolves.toEqual({ user: 1 });
    expect(fetchMock.mock.calls.map(([url]) => new URL(url).pathname)).toEqual([
      '/api/auth/me',
      '/api/auth/token-bridge',
      '/api/auth/me',
    ]);
    expect(sessionStorage.getItem('token')).toBe('fresh');
  });

  it('retries only once when the bridge also fails', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(json(401, { error: 'Please sign in.' })));
    vi.stubGlobal('fetch', fetchMock);
    await expect(http.get('/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not bridge after a 401 on a POST', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(json(401, { error: 'Wrong username/email or password.' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(http.post('/api/auth/login', {})).rejects.toMatchObject({
      status: 401,
      serverMessage: 'Wrong username/email or password.',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns an unreachable server into status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await http.get('/api/x').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(0);
  });

  it('gives up after the request time-out', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () =>
              reject(new DOMException('aborted', 'AbortError')),
            );
          }),
      ),
    );
    const pending = http.get('/api/slow').catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(await pending).toMatchObject({ status: 0 });
    vi.useRealTimers();
  });
});
