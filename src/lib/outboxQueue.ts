/**
 * The offline outbox as kept on the device (docs/decisions.md "The offline outbox"): the worker's
 * workbox queue per member, one IndexedDB entry per waiting write. The page reads it for what
 * waits (the marks, the count, Settings) and drops items from it (Discard, logout); the worker
 * adds to it and sends from it.
 */
import type { IDBPDatabase } from 'idb';
import { QueueDb } from 'workbox-background-sync/lib/QueueDb.js';

/** The member's queue: one per member, so nobody's items are sent as someone else. */
export const outboxQueueName = (memberId: string): string => `outbox-${memberId}`;

/** What the worker keeps beside each queued request. */
export interface OutboxMetadata {
  /** The action's Idempotency-Key. */
  key: string;
  method: string;
  /** Path and query, as called. */
  path: string;
}

/** One write waiting in the member's outbox, oldest first in a list. */
export interface OutboxItem extends OutboxMetadata {
  /** The queue entry's id, for Discard. */
  id: number;
  /** When the member took the action (ms). */
  at: number;
  /** The JSON body sent, or undefined for a form (an upload) or none. */
  json: unknown;
  /** The form sent (an upload's fields and file), or undefined. */
  form?: () => Promise<FormData>;
}

let queues: QueueDb | undefined;
const queueDb = (): QueueDb => (queues ??= new QueueDb());

const decoder = new TextDecoder();

function itemOf(
  entry: Awaited<ReturnType<QueueDb['getAllEntriesByQueueName']>>[number],
): OutboxItem {
  const metadata = (entry.metadata ?? {}) as Partial<OutboxMetadata>;
  const { body, method, url } = entry.requestData;
  const headers = (entry.requestData.headers ?? {}) as Record<string, string>;
  const type =
    Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
  let json: unknown;
  if (body && type.includes('json')) {
    try {
      json = JSON.parse(decoder.decode(body)) as unknown;
    } catch {
      json = undefined;
    }
  }
  const parsed = new URL(url);
  return {
    id: entry.id,
    at: entry.timestamp,
    key: metadata.key ?? '',
    method: metadata.method ?? String(method ?? 'GET'),
    path: metadata.path ?? parsed.pathname + parsed.search,
    json,
    ...(body && type.includes('multipart/form-data')
      ? { form: () => new Response(body, { headers: { 'Content-Type': type } }).formData() }
      : {}),
  };
}

/** The member's waiting writes, oldest first; none when the device keeps no queue. */
export async function readOutbox(memberId: string): Promise<OutboxItem[]> {
  try {
    const entries = await queueDb().getAllEntriesByQueueName(outboxQueueName(memberId));
    return entries.sort((a, b) => a.id - b.id).map(itemOf);
  } catch {
    return [];
  }
}

/** Drops waiting writes by id: they are never sent. */
export async function discardOutboxItems(ids: readonly number[]): Promise<void> {
  for (const id of ids)
    await queueDb()
      .deleteEntry(id)
      .catch(() => undefined);
}

/** Drops everything the member has waiting (logout, account gone). */
export async function wipeOutbox(memberId: string): Promise<void> {
  await discardOutboxItems((await readOutbox(memberId)).map((item) => item.id));
}

/** Drops every member's waiting writes (everything of everyone goes). */
export async function wipeAllOutboxes(): Promise<void> {
  try {
    // Workbox keeps every queue's entries in one store, `requests`, and reads it with `getDb()`,
    // a method its types mark private; it has no call that drops every queue.
    const open = queueDb() as unknown as { getDb: () => Promise<IDBPDatabase> };
    await (await open.getDb()).clear('requests');
  } catch {
    // No queue kept on this device.
  }
}
