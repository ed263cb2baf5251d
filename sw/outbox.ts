/**
 * The offline outbox (docs/decisions.md "The offline outbox"): a write the endpoint table marks
 * `outbox` that cannot reach the server is kept in the signed-in member's own workbox queue and
 * answered `202` with the offline header; the queue is sent in order when the network is back
 * (Background Sync, or a page's OUTBOX_REPLAY message), and each item's result is posted to the pages.
 */
import { Queue } from 'workbox-background-sync';
import { OUTBOX_CALLS } from '../src/contracts/endpoints.lists.ts';
import {
  IDEMPOTENCY_HEADER,
  OFFLINE_HEADER,
  OUTBOX_REPLAY,
  type OutboxResult,
  QUEUED_WORDS,
} from '../src/contracts/constants.ts';
import { readCurrentMember } from '../src/lib/idb.ts';
import { serverMessageOf } from '../src/contracts/serverMessage.ts';
import { type OutboxMetadata, outboxQueueName } from '../src/lib/outboxQueue.ts';

/** A write the outbox may keep: a marked call on this origin that names its action. */
export function isOutboxCall(request: Request, origin: string): boolean {
  const url = new URL(request.url);
  return (
    url.origin === origin &&
    request.headers.has(IDEMPOTENCY_HEADER) &&
    OUTBOX_CALLS.some((call) => call.method === request.method && call.path.test(url.pathname))
  );
}

type Post = (message: OutboxResult) => Promise<void>;

/**
 * Sends `queue`'s items oldest first. An answer below 500 settles the item (sent, or refused
 * with the server's words); no answer or a 5xx puts it back at the head and stops, so nothing is
 * sent before what was done earlier. Throws then, so Background Sync tries again later.
 */
export async function replay(
  queue: Pick<Queue, 'shiftRequest' | 'unshiftRequest'>,
  post: Post,
  send: (request: Request) => Promise<Response> = (request) => fetch(request),
): Promise<void> {
  for (let entry = await queue.shiftRequest(); entry; entry = await queue.shiftRequest()) {
    const key = (entry.metadata as Partial<OutboxMetadata> | undefined)?.key ?? '';
    let response: Response | undefined;
    try {
      response = await send(entry.request.clone());
    } catch {
      response = undefined;
    }
    if (!response || response.status >= 500) {
      await queue.unshiftRequest(entry);
      await post({ type: 'outbox', key, result: 'waiting' });
      throw new Error('The outbox waits for the network');
    }
    if (response.ok) await post({ type: 'outbox', key, result: 'sent' });
    else {
      const error = serverMessageOf(await response.text().catch(() => ''));
      await post({ type: 'outbox', key, result: 'refused', ...(error ? { error } : {}) });
    }
  }
}

export function registerOutbox(sw: ServiceWorkerGlobalScope): void {
  const queues = new Map<string, Queue>();
  // One replay at a time: a sync event and a page's nudge together would otherwise each take the
  // next item and could send them out of order.
  let running: Promise<unknown> = Promise.resolve();
  const serially = (work: () => Promise<void>): Promise<void> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };
  const post: Post = async (message) => {
    const pages = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
    for (const page of pages) page.postMessage(message);
  };

  /** The member's queue, made once per worker (workbox allows one Queue per name). */
  const queueOf = (memberId: string): Queue => {
    let queue = queues.get(memberId);
    if (!queue) {
      queue = new Queue(outboxQueueName(memberId), {
        // Only the signed-in member's items are ever sent: another member's wait for them.
        onSync: ({ queue: own }) =>
          serially(async () => {
            if ((await readCurrentMember()) === memberId) await replay(own, post);
          }),
      });
      queues.set(memberId, queue);
    }
    return queue;
  };

  const replayCurrent = async () => {
    const memberId = await readCurrentMember();
    if (memberId) await serially(() => replay(queueOf(memberId), post)).catch(() => undefined);
  };

  const handle = async (request: Request): Promise<Response> => {
    const kept = request.clone();
    try {
      return await fetch(request);
    } catch (error) {
      const memberId = await readCurrentMember();
      if (!memberId) throw error;
      const url = new URL(kept.url);
      const metadata: OutboxMetadata = {
        key: kept.headers.get(IDEMPOTENCY_HEADER) ?? '',
        method: kept.method,
        path: url.pathname + url.search,
      };
      await queueOf(memberId).pushRequest({ request: kept, metadata: { ...metadata } });
      await post({ type: 'outbox', key: metadata.key, result: 'queued' });
      return new Response(JSON.stringify({ error: QUEUED_WORDS }), {
        status: 202,
        headers: { 'Content-Type': 'application/json', [OFFLINE_HEADER]: '1' },
      });
    }
  };

  sw.addEventListener('fetch', (event) => {
    const { request } = event;
    if (!isOutboxCall(request, sw.location.origin)) return;
    // While the device is online an upload goes straight out, so the page's progress follows the
    // bytes on the wire, not their hand-over to the worker; its key still makes a retry safe.
    const upload = request.headers.get('Content-Type')?.startsWith('multipart/form-data');
    if (upload && sw.navigator.onLine) return;
    event.respondWith(handle(request));
  });

  sw.addEventListener('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type === OUTBOX_REPLAY) {
      event.waitUntil(replayCurrent());
    }
  });
}
