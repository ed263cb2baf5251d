/** Test data for the offline outbox: writes waiting in the member's queue. */
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { QueueDb } from 'workbox-background-sync/lib/QueueDb.js';
import type { CurrentUser } from '../contracts/readers/user.ts';
import { useSession } from '../features/auth/store.ts';
import { setCurrentMember, wipeAll } from '../lib/idb.ts';
import { resetMemberState } from '../lib/memberState.ts';
import { type OutboxItem, outboxQueueName } from '../lib/outboxQueue.ts';

/** The member whose outbox the tests fill. */
export const alice = { id: 'alice-id', username: 'alice' } as CurrentUser;

/**
 * Each test of the calling file starts with `alice` signed in on this device and ends as a logout
 * does, with every member's copies and outboxes wiped from IndexedDB.
 */
export function aliceSignedIn() {
  beforeEach(async () => {
    await setCurrentMember(alice.id);
    useSession.setState({ status: 'signedIn', user: alice, error: null });
  });
  afterEach(async () => {
    cleanup();
    vi.unstubAllGlobals();
    await resetMemberState({ memberId: alice.id, ended: true });
    useSession.setState({ status: 'signedOut', user: null, error: null });
    await wipeAll();
  });
}

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
