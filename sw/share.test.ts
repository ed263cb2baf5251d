import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
// Workbox reads the worker's global scope as it loads: Node's global stands in for it.
vi.hoisted(() => Object.assign(globalThis, { self: globalThis, __WB_DISABLE_DEV_LOGS: true }));

import { claimSharedFiles, closeDatabase, setCurrentMember } from '../src/lib/idb.ts';
import { receiveShare } from './share.ts';

const ORIGIN = 'https://orbit.test';
const ALICE = 'alice-id';

function shareRequest(form: FormData): Request {
  return new Request(`${ORIGIN}/share`, { method: 'POST', body: form });
}

const photo = (name: string) => new File([new Uint8Array(12)], name, { type: 'image/jpeg' });

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

afterEach(async () => {
  await closeDatabase();
});

describe('a share into Orbit', () => {
  it('keeps the photos for the member signed in and sends the page to the profile with 303', async () => {
    await setCurrentMember(ALICE);
    const form = new FormData();
    form.append('photos', photo('a.jpg'));
    form.append('photos', photo('b.jpg'));
    // What else a share may carry is not kept.
    form.append('title', 'Holiday');
    form.append('other', photo('c.jpg'));

    const response = await receiveShare(shareRequest(form), ORIGIN);
    expect(response.status).toBe(303);
    expect(response.headers.get('Location')).toBe(`${ORIGIN}/profile`);

    const kept = await claimSharedFiles(ALICE);
    expect(kept.map((entry) => [entry.name, entry.type, entry.file.size])).toEqual([
      ['a.jpg', 'image/jpeg', 12],
      ['b.jpg', 'image/jpeg', 12],
    ]);
    // Alice's, not for whoever comes next.
    expect(await claimSharedFiles('bob-id')).toEqual([]);
  });

  it('keeps a signed-out share for whoever logs in next', async () => {
    const form = new FormData();
    form.append('photos', photo('a.jpg'));
    await receiveShare(shareRequest(form), ORIGIN);
    expect((await claimSharedFiles('bob-id')).map((entry) => entry.name)).toEqual(['a.jpg']);
  });

  it('opens the profile even when the form does not read', async () => {
    const request = new Request(`${ORIGIN}/share`, { method: 'POST', body: 'not a form' });
    const response = await receiveShare(request, ORIGIN);
    expect(response.status).toBe(303);
    expect(await claimSharedFiles(ALICE)).toEqual([]);
  });
});
