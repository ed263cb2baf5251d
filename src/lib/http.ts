import * as PATHS from '../contracts/paths/session.ts';
import { REQUEST_TIMEOUT_MS } from './constants.ts';
import { OFFLINE_HEADER } from '../contracts/constants.ts';
import { apiUrl } from './apiHost.ts';
import { serverMessageOf } from '../contracts/serverMessage.ts';
import { readToken, storeToken, tokenIsRemembered } from './storage.ts';

/** A failed call: `status` 0 means the server could not be reached. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverMessage: string | null = null,
    /** The response's status text and raw body, for messages that quote them (docs/product.md "Errors": delete, upload). */
    readonly statusText = '',
    readonly body = '',
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface RequestOptions {
  json?: unknown;
  form?: FormData;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Disables the 401 → token-bridge → retry-once rule for this call. */
  noBridge?: boolean;
  cache?: RequestCache;
  /** Headers beside the ones every call carries (the outbox's action key). */
  headers?: Record<string, string>;
}

/**
 * Hears what each request learns about the connection: `true` when the server answered, `false`
 * when it could not be reached or the service worker answered from its cache. The network state
 * lives in a feature and subscribes here, so this client depends on nothing above it.
 */
export type ConnectionListener = (reachable: boolean) => void;

const connectionListeners = new Set<ConnectionListener>();

/** Adds a listener for what requests learn about the connection; answers a function that stops. */
export function onConnection(listener: ConnectionListener): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
}

function tellConnection(reachable: boolean) {
  for (const listener of connectionListeners) listener(reachable);
}

/** What a response says about the connection: a cached answer means offline, a fresh one online. */
function noteConnection(response: Response) {
  if (response.headers.get(OFFLINE_HEADER) === '1') tellConnection(false);
  else if (response.status < 500) tellConnection(true);
}

function withTimeout(
  signal: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DOMException('Request timed out', 'TimeoutError')),
    ms,
  );
  const forward = () => controller.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    },
  };
}

async function send(method: string, path: string, options: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  const token = readToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  const timed = withTimeout(options.signal, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  try {
    const response = await fetch(apiUrl(path), {
      method,
      headers,
      credentials: 'include',
      signal: timed.signal,
      ...(body !== undefined ? { body } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
    });
    noteConnection(response);
    return response;
  } catch (error) {
    if (options.signal?.aborted) throw error;
    tellConnection(false);
    throw new HttpError(0, 'Network error', null);
  } finally {
    timed.done();
  }
}

/** GET /api/auth/token-bridge: the cookie's session as a bearer token, stored under `token`. */
async function bridgeToken(): Promise<boolean> {
  const response = await send(PATHS.tokenBridge.method, PATHS.tokenBridge.path, {
    noBridge: true,
    cache: 'no-store',
  });
  if (!response.ok) return false;
  const { token } = (await response.json()) as { token?: unknown };
  if (typeof token !== 'string' || !token) return false;
  storeToken(token, tokenIsRemembered());
  return true;
}

/**
 * Every server call: cookies included, bearer from storage, 8 s time-out, one retry after a 401
 * on GET. Answers the parsed JSON body, unread: `api()` (src/lib/api.ts) reads it with its entry.
 */
export async function request(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<unknown> {
  let response = await send(method, path, options);
  if (response.status === 401 && method === 'GET' && !options.noBridge) {
    if (await bridgeToken().catch(() => false)) response = await send(method, path, options);
  }
  // The worker's 202 for a write kept in the outbox fails the call with status 202 and the
  // worker's words (docs/decisions.md "The offline outbox").
  if (!response.ok || (response.status === 202 && response.headers.has(OFFLINE_HEADER))) {
    const text = await response.text().catch(() => '');
    const serverMessage = serverMessageOf(text);
    throw new HttpError(
      response.status,
      serverMessage ?? `${response.status} ${response.statusText}`,
      serverMessage,
      response.statusText,
      text,
    );
  }
  if (response.status === 204) return undefined;
  const text = await response.text();
  return text ? (JSON.parse(text) as unknown) : undefined;
}
