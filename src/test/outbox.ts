/** Test data for the offline outbox: writes waiting in the member's queue. */
import type { OutboxItem } from '../lib/outboxQueue.ts';

/** A JSON write waiting in the outbox, the `id`-th taken. */
export function waitingItem(id: number, method: string, path: string, json: unknown): OutboxItem {
  return { id, key: `key-${id}`, method, path, json, at: id };
}
