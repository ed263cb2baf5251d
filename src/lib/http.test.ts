import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError, onConnection, request } from './http.ts';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The network answers every request with `response`. */
const answerWith = (response: Response) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(response)),
  );

/** Every request fails the way fetch fails, with `error`. */
const failWith = (error: Error) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(error)),
  );

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
    await request('GET', '/api/auth/me');
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.credentials).toBe('include');
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer abc');
  });

  it('reads authToken from session storage too', async () => {
    sessionStorage.setItem('authToken', 'xyz');
    const fetchMock = vi.fn((_url: string, _init: RequestInit) => Promise.resolve(json(200, {})));
    vi.stubGlobal('fetch', fetchMock);
    await request('GET', '/api/x');
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
    await expect(request('GET', '/api/auth/me')).resolves.toEqual({ user: 1 });
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
    await expect(request('GET', '/api/auth/me')).rejects.toMatchObject({ status: 401 });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not bridge after a 401 on a POST', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(json(401, { error: 'Wrong username/email or password.' })),
    );
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('POST', '/api/auth/login', { json: {} })).rejects.toMatchObject({
      status: 401,
      serverMessage: 'Wrong username/email or password.',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('turns an unreachable server into status 0', async () => {
    failWith(new TypeError('Failed to fetch'));
    const error = await request('GET', '/api/x').catch((caught: unknown) => caught);
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
    const pending = request('GET', '/api/slow').catch((caught: unknown) => caught);
    await vi.advanceTimersByTimeAsync(8_000);
    expect(await pending).toMatchObject({ status: 0 });
    vi.useRealTimers();
  });

  describe('and the connection', () => {
    let heard: boolean[];
    let stop: () => void;
    beforeEach(() => {
      heard = [];
      stop = onConnection((reachable) => heard.push(reachable));
    });
    afterEach(() => stop());

    it('tells its listeners the server cannot be reached', async () => {
      failWith(new TypeError('Failed to fetch'));
      await request('GET', '/api/x').catch(() => undefined);
      expect(heard).toEqual([false]);
    });

    it('counts an answer the service worker served from its cache as offline', async () => {
      const cached = new Response('{"ok":true}', {
        status: 200,
        headers: { 'x-orbit-offline': '1' },
      });
      answerWith(cached);
      await expect(request('GET', '/api/x')).resolves.toEqual({ ok: true });
      expect(heard).toEqual([false]);
    });

    it('counts a fresh answer as online, even a refusal', async () => {
      answerWith(json(404, { error: 'Not found' }));
      await request('GET', '/api/x').catch(() => undefined);
      expect(heard).toEqual([true]);
    });

    it('says nothing on a server error, which proves neither', async () => {
      answerWith(json(503, { error: 'Busy' }));
      await request('GET', '/api/x').catch(() => undefined);
      expect(heard).toEqual([]);
    });

    it('says nothing when the caller aborts', async () => {
      const controller = new AbortController();
      controller.abort();
      failWith(new DOMException('aborted', 'AbortError'));
      await request('GET', '/api/x', { signal: controller.signal }).catch(() => undefined);
      expect(heard).toEqual([]);
    });

    it('stops telling a listener that has stopped', async () => {
      stop();
      answerWith(json(200, {}));
      await request('GET', '/api/x');
      expect(heard).toEqual([]);
    });
  });
});
