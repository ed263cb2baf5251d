import { QueueDb } from 'workbox-background-sync/lib/QueueDb.js';
import { outboxQueueName } from '../lib/outboxQueue.ts';

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
