/**
 * How the worker answers API calls and pictures from the member's saved copies in IndexedDB. With
 * no current member nothing is saved and nothing saved is served.
 */
import { OFFLINE_HEADER } from '../src/contracts/offline.ts';
import {
  type SavedResponse,
  readCurrentMember,
  readMedia,
  readResponse,
  saveMedia,
  saveResponse,
} from '../src/lib/idb.ts';

/** How long an API call may take before the saved copy answers instead. */
export const API_TIMEOUT_MS = 3_000;
/** Answers from a proxy whose server cannot be reached: as good as no network. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

export interface StrategyContext {
  fetch: (request: Request) => Promise<Response>;
  /** Keeps the worker alive for work that finishes after the answer (saving a copy). */
  waitUntil: (work: Promise<unknown>) => void;
  timeoutMs?: number;
}

type NetworkOutcome = { kind: 'answered'; response: Response } | { kind: 'failed' | 'slow' };

function after(ms: number): { done: Promise<NetworkOutcome>; cancel: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<NetworkOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'slow' }), ms);
  });
  return { done, cancel: () => clearTimeout(timer) };
}

function fromCopy(copy: SavedResponse): Response {
  return new Response(copy.body, {
    status: copy.status,
    headers: { 'Content-Type': copy.contentType, [OFFLINE_HEADER]: '1' },
  });
}

async function saveCopy(userId: string, url: string, response: Response): Promise<void> {
  await saveResponse({
    userId,
    url,
    status: response.status,
    contentType: response.headers.get('Content-Type') ?? 'application/json',
    body: await response.text(),
  });
}

/**
 * Network first: a good answer is returned and saved for the current member; a failure, an
 * unreachable server or an answer slower than the timeout falls back to the saved copy (marked
 * with {@link OFFLINE_HEADER}). A slow network with no copy is still waited for; a failed one with
 * no copy fails like the network.
 */
export async function networkFirstApi(
  request: Request,
  context: StrategyContext,
): Promise<Response> {
  const network = context.fetch(request);
  const userId = await readCurrentMember();
  if (!userId) return network;

  const saved = network.then((response) => {
    if (response.ok && response.status !== 204) {
      context.waitUntil(saveCopy(userId, request.url, response.clone()).catch(() => undefined));
    }
    return response;
  });
  const timeout = after(context.timeoutMs ?? API_TIMEOUT_MS);
  const outcome = await Promise.race<NetworkOutcome>([
    saved.then(
      (response) => ({ kind: 'answered', response }),
      () => ({ kind: 'failed' }),
    ),
    timeout.done,
  ]);
  timeout.cancel();
  if (outcome.kind === 'answered' && !UNREACHABLE_STATUSES.has(outcome.response.status)) {
    return outcome.response;
  }

  const copy = await readResponse(userId, request.url);
  if (copy) {
    context.waitUntil(saved.catch(() => undefined));
    return fromCopy(copy);
  }
  if (outcome.kind === 'answered') return outcome.response;
  return saved.catch(() => Response.error());
}

function fromMedia(blob: Blob): Response {
  return new Response(blob, {
    headers: { 'Content-Type': blob.type, 'Content-Length': String(blob.size) },
  });
}

/** Whether a picture's bytes can be read and kept (not an opaque cross-origin answer). */
function keepable(response: Response): boolean {
  return response.status === 200 && response.type !== 'opaque' && response.type !== 'error';
}

/**
 * Cache first: the member's saved copy of a thumbnail or avatar if there is one (and it becomes
 * the most recently used), else the network, whose answer is saved for next time.
 */
export async function cacheFirstMedia(
  request: Request,
  context: StrategyContext,
): Promise<Response> {
  const userId = await readCurrentMember();
  if (!userId) return context.fetch(request);
  const stored = await readMedia(userId, request.url);
  if (stored) return fromMedia(stored.blob);

  const response = await context.fetch(request);
  if (keepable(response)) {
    const copy = response.clone();
    context.waitUntil(
      copy
        .blob()
        .then((blob) => saveMedia(userId, request.url, blob))
        .catch(() => undefined),
    );
  }
  return response;
}
