// @vitest-environment node
import 'fake-indexeddb/auto';
import { QueueDb } from 'workbox-background-sync/lib/QueueDb.js';
import { StorableRequest } from 'workbox-background-sync/lib/StorableRequest.js';
import { describe, expect, it } from 'vitest';
import {
  discardOutboxItems,
  outboxQueueName,
  readOutbox,
  wipeAllOutboxes,
  wipeOutbox,
} from './outboxQueue.ts';

/** Queues a write as the worker does: the request as workbox stores it, with its metadata. */
async function queue(memberId: string, method: string, path: string, body: BodyInit, key: string) {
  const request = new Request(`https://orbit.test${path}`, {
    method,
    body,
    ...(typeof body === 'string' ? { headers: { 'Content-Type': 'application/json' } } : {}),
  });
  const stored = await StorableRequest.fromRequest(request);
  await new QueueDb().addEntry({
    queueName: outboxQueueName(memberId),
    requestData: stored.toObject(),
    timestamp: Date.now(),
    metadata: { key, method, path },
  });
}

describe('the outbox as kept on the device', () => {
  it("reads one member's waiting writes oldest first, with their bodies, and not another's", async () => {
    await queue('ann', 'PATCH', '/api/gallery/p1', JSON.stringify({ likes: true }), 'k1');
    await queue('bob', 'PATCH', '/api/gallery/p9', JSON.stringify({ likes: true }), 'k9');
    const form = new FormData();
    form.append('folderId', 'f1');
    form.append('image', new Blob(['jpeg'], { type: 'image/jpeg' }), 'sea.jpg');
    await queue('ann', 'POST', '/api/gallery', form, 'k2');

    const items = await readOutbox('ann');
    expect(items.map(({ key, method, path }) => [key, method, path])).toEqual([
      ['k1', 'PATCH', '/api/gallery/p1'],
      ['k2', 'POST', '/api/gallery'],
    ]);
    expect(items[0]?.json).toEqual({ likes: true });
    expect(items[1]?.json).toBeUndefined();
    const sent = await items[1]?.form?.();
    expect(sent?.get('folderId')).toBe('f1');
    expect((sent?.get('image') as File).name).toBe('sea.jpg');

    await discardOutboxItems([items[0]!.id]);
    expect((await readOutbox('ann')).map((item) => item.key)).toEqual(['k2']);
    await wipeOutbox('ann');
    expect(await readOutbox('ann')).toEqual([]);
    expect((await readOutbox('bob')).map((item) => item.key)).toEqual(['k9']);
  });

  it('drops every member’s waiting writes when everything of everyone goes', async () => {
    await queue('ann', 'PATCH', '/api/gallery/p1', JSON.stringify({ likes: true }), 'k1');
    await queue('bob', 'PATCH', '/api/gallery/p9', JSON.stringify({ likes: true }), 'k9');
    await wipeAllOutboxes();
    expect(await readOutbox('ann')).toEqual([]);
    expect(await readOutbox('bob')).toEqual([]);
  });
});
