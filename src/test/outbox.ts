/** Test data for the offline outbox: writes waiting in the member's queue. */
import { QueueDb } from 'workbox-background-sync/lib/QueueDb.js';
import { type OutboxItem, outboxQueueName } from '../lib/outboxQueue.ts';

/** A JSON write waiting in the outbox, the `id`-th taken. */
export function waitingItem(id: number, method: string, path: string, json: unknown): OutboxItem {
  return { id, key: `key-${id}`, method, path, json, at: id };
}

const encoder = new TextEncoder();

/** Keeps a JSON write in `memberId`'s queue as the worker does; `at` is when it was made. */
export async function keep(
  memberId: string,
  method: string,
  path: string,
  body: unknown,
  at: number,
) {
  await new QueueDb().addEntry({
    queueName: outboxQueueName(memberId),
    requestData: {
      url: `https://orbit.test${path}`,
      method,
      headers: { 'content-type': 'application/json' },
      body: encoder.encode(JSON.stringify(body)).buffer,
      mode: 'cors',
      credentials: 'include',
    },
    timestamp: at,
    metadata: { key: `k-${at}`, method, path },
  });
}
