import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useGallery } from './store.ts';
import { galleryImage, json } from '../../test/gallery.ts';
import { useOutboxItems } from '../offline/outbox.ts';
import { useNetwork } from '../offline/store.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';

/** A stand-in for XMLHttpRequest: each request waits until the test answers it. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  method = '';
  url = '';
  withCredentials = false;
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  statusText = '';
  responseText = '';
  upload: {
    onprogress:
      ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;
  } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true });
  }
  responseHeaders: Record<string, string> = {};
  getResponseHeader(name: string): string | null {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  respond(status: number, body: string, statusText = '', headers: Record<string, string> = {}) {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.responseHeaders = headers;
    this.onload?.();
  }
}

const owner = { id: 'me', username: 'vega' };
const file = (name: string, size = 10, type = 'image/png') =>
  new File([new Uint8Array(size)], name, { type });
const status = () => useGallery.getState().uploadStatus.me;
const tiles = () => useGallery.getState().uploads;
const names = () => tiles().map((item) => item.name);
const tile = (name: string) => tiles().find((item) => item.name === name);
const settle = () => vi.advanceTimersByTimeAsync(0);
const sentNames = () => FakeXhr.sent.map((xhr) => (xhr.body?.get('image') as File).name);
const start = (files: File[], folder = 'All') =>
  useGallery.getState().upload(owner, files, { canEdit: true, folder });
const created = (id: string) => JSON.stringify({ image: galleryImage(id) });

/** The browser's decoder: a file whose name starts with 'text' or 'heic' is no picture to it. */
const decode = vi.fn((blob: Blob) =>
  /^(text|heic)/.test((blob as File).name)
    ? Promise.reject(
        new DOMException('The source image could not be decoded.', 'InvalidStateError'),
      )
    : Promise.resolve({ close() {} }),
);

describe('uploading', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal('createImageBitmap', decode);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json({ images: [] }))),
    );
    useGallery.getState().reset();
    useGallery.setState({ galleries: { me: { status: 'ready', items: [], folders: ['All'] } } });
    useSession.setState({
      status: 'signedIn',
      user: { id: 'me', username: 'vega' } as CurrentUser,
    });
    localStorage.setItem('token', 'tok');
  });
  afterEach(() => {
    useGallery.getState().cancelAllUploads();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('refuses a member who may not edit', async () => {
    await useGallery.getState().upload(owner, [file('a.png')], { canEdit: false, folder: 'All' });
    expect(status()).toBe('Not allowed to upload here.');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('says so when no file was chosen, and clears the text after 2.2 s', async () => {
    await useGallery.getState().upload(owner, [], { canEdit: true, folder: 'All' });
    expect(status()).toBe('No files selected.');
    vi.advanceTimersByTime(2_199);
    expect(status()).toBe('No files selected.');
    vi.advanceTimersByTime(1);
    expect(status()).toBeUndefined();
  });

  it('shows a tile per file at once in the order picked, and sends three at a time', async () => {
    const picked = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png'];
    const done = start(picked.map((name) => file(name)));
    expect(status()).toBe('Selected 5 file(s)…');
    expect(names()).toEqual(picked);
    expect(tiles().every((item) => item.phase === 'waiting')).toBe(true);

    await settle();
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png']);
    expect(tiles().map((item) => item.phase)).toEqual([
      'sending',
      'sending',
      'sending',
      'waiting',
      'waiting',
    ]);
    expect(status()).toBe('Uploading 1 of 5…');

    // The second answers first: the next file starts, and the count moves on.
    FakeXhr.sent[1]?.respond(201, created('img-b'));
    await settle();
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png', 'd.png']);
    expect(names()).toEqual(['a.png', 'c.png', 'd.png', 'e.png']);
    expect(status()).toBe('Uploading 2 of 5…');

    FakeXhr.sent[0]?.respond(201, created('img-a'));
    await settle();
    expect(FakeXhr.sent).toHaveLength(5);
    expect(status()).toBe('Uploading 3 of 5…');
    for (const index of [2, 3]) FakeXhr.sent[index]?.respond(201, created(`img-${index}`));
    await settle();
    expect(status()).toBe('Uploading 5 of 5…');
    FakeXhr.sent[4]?.respond(201, created('img-e'));
    await done;
    expect(names()).toEqual([]);
    expect(status()).toBe('Uploaded e.png');
    vi.advanceTimersByTime(2_200);
    expect(status()).toBeUndefined();
  });

  it('sends the form with the session, shows progress and takes the photo from the answer alone', async () => {
    const uploaded = galleryImage('img-a', {
      owner: { id: 'me', username: 'vega', profileImage: '' },
    });
    useGallery.setState({
      galleries: { me: { status: 'ready', items: [galleryImage('old')], folders: ['All'] } },
    });
    const done = start([file('a.png')]);
    await settle();
    const [first] = FakeXhr.sent;
    expect(first?.url).toMatch(/\/api\/gallery$/);
    expect(first?.withCredentials).toBe(true);
    expect(first?.headers.Authorization).toBe('Bearer tok');
    expect(Object.fromEntries(first?.body?.entries() ?? [])).toMatchObject({
      accountId: 'me',
      userId: 'me',
      username: 'vega',
    });
    expect(first?.body?.has('folder')).toBe(false);

    first?.progress(5, 10);
    expect(tile('a.png')).toMatchObject({ loaded: 5, total: 10 });
    first?.respond(201, JSON.stringify({ image: uploaded }));
    await done;
    await settle();
    expect(status()).toBe('Uploaded a.png');
    expect(useGallery.getState().galleries.me?.items.map((image) => image.id)).toEqual([
      'img-a',
      'old',
    ]);
    // The answer is the acting tab's word on it: nothing is read again (docs/architecture.md
    // "Client state").
    expect(fetch).not.toHaveBeenCalled();
  });

  it('keeps each failure on its tile in the server’s own words, after the status line has gone', async () => {
    const done = start([file('a.png'), file('b.png'), file('c.png')]);
    await settle();
    FakeXhr.sent[0]?.respond(
      415,
      JSON.stringify({ error: 'That file is not a supported image.' }),
      'Unsupported Media Type',
    );
    FakeXhr.sent[1]?.respond(500, '<html>Bad gateway</html>', 'Internal Server Error');
    FakeXhr.sent[2]?.onerror?.();
    await done;
    expect(
      tiles().map(({ name, phase, error, canRetry }) => ({ name, phase, error, canRetry })),
    ).toEqual([
      {
        name: 'a.png',
        phase: 'failed',
        error: 'Failed a.png: That file is not a supported image.',
        canRetry: false,
      },
      {
        name: 'b.png',
        phase: 'failed',
        error: 'Failed b.png: Upload failed (500)',
        canRetry: true,
      },
      {
        name: 'c.png',
        phase: 'failed',
        error: 'Failed c.png: Could not reach the server',
        canRetry: true,
      },
    ]);
    expect(status()).toBe('Failed c.png: Could not reach the server');
    vi.advanceTimersByTime(2_200);
    expect(status()).toBeUndefined();
    expect(tiles()).toHaveLength(3);
  });

  it('sends a failed file again on Retry, and drops its tile on Dismiss', async () => {
    const done = start([file('a.png'), file('b.png')]);
    await settle();
    FakeXhr.sent[0]?.respond(500, JSON.stringify({ error: 'Something went wrong.' }));
    FakeXhr.sent[1]?.respond(413, JSON.stringify({ error: 'Too big.' }));
    await done;
    expect(tile('a.png')).toMatchObject({
      error: 'Failed a.png: Something went wrong.',
      canRetry: true,
    });
    expect(tile('b.png')).toMatchObject({ error: 'Failed b.png: Too big.', canRetry: false });

    // The server refused b.png itself: sending it again cannot help, so it is not sent.
    await useGallery.getState().retryUpload(tile('b.png')?.key ?? '');
    expect(FakeXhr.sent).toHaveLength(2);

    const again = useGallery.getState().retryUpload(tile('a.png')?.key ?? '');
    expect(tile('a.png')).toMatchObject({ phase: 'waiting', error: undefined });
    expect(status()).toBe('Uploading 1 of 1…');
    await settle();
    expect(tile('a.png')).toMatchObject({ phase: 'sending', error: undefined });
    expect(sentNames()).toEqual(['a.png', 'b.png', 'a.png']);
    FakeXhr.sent[2]?.respond(201, created('img-a'));
    await again;
    expect(names()).toEqual(['b.png']);
    expect(status()).toBe('Uploaded a.png');

    useGallery.getState().dismissUpload(tile('b.png')?.key ?? '');
    expect(names()).toEqual([]);
    expect(FakeXhr.sent).toHaveLength(3);
  });

  it('shows a 429 in the server’s words and holds Retry and the files behind it until Retry-After', async () => {
    const busy = 'You’re uploading too much at once. Wait for the others to finish.';
    const done = start(['a.png', 'b.png', 'c.png', 'd.png'].map((name) => file(name)));
    await settle();
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png']);
    FakeXhr.sent[0]?.respond(429, JSON.stringify({ error: busy }), 'Too Many Requests', {
      'retry-after': '5',
    });
    await settle();
    expect(tile('a.png')).toMatchObject({
      phase: 'failed',
      error: `Failed a.png: ${busy}`,
      canRetry: true,
    });
    FakeXhr.sent[1]?.respond(201, created('img-b'));
    FakeXhr.sent[2]?.respond(201, created('img-c'));
    await settle();
    // d.png waits out the server's 5 s, and Retry does nothing before then.
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png']);
    expect(tile('d.png')?.phase).toBe('waiting');
    void useGallery.getState().retryUpload(tile('a.png')?.key ?? '');
    expect(tile('a.png')?.phase).toBe('failed');

    await vi.advanceTimersByTimeAsync(5_000);
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png', 'd.png']);
    const again = useGallery.getState().retryUpload(tile('a.png')?.key ?? '');
    await settle();
    expect(sentNames()).toEqual(['a.png', 'b.png', 'c.png', 'd.png', 'a.png']);
    FakeXhr.sent[3]?.respond(201, created('img-d'));
    FakeXhr.sent[4]?.respond(201, created('img-a'));
    await Promise.all([done, again]);
    expect(names()).toEqual([]);
  });

  it('refuses a file over 20 MB on its tile before sending, and sends the others', async () => {
    const big = file('big.jpg', 20 * 1024 * 1024 + 1);
    const done = start([big, file('ok.png')], 'Trips');
    expect(names()).toEqual(['big.jpg', 'ok.png']);
    expect(tile('big.jpg')).toMatchObject({
      phase: 'failed',
      error: 'Rejected big.jpg: >20MB',
      canRetry: false,
    });
    await settle();
    expect(sentNames()).toEqual(['ok.png']);
    expect(FakeXhr.sent[0]?.body?.get('folder')).toBe('Trips');
    expect(status()).toBe('Uploading 2 of 2…');
    FakeXhr.sent[0]?.respond(201, created('ok'));
    await done;
    expect(status()).toBe('Uploaded ok.png');
    expect(names()).toEqual(['big.jpg']);
  });

  it('says Rejected {file}: >20MB when that was the only file', async () => {
    await start([file('big.jpg', 20 * 1024 * 1024 + 1)]);
    expect(status()).toBe('Rejected big.jpg: >20MB');
    expect(FakeXhr.sent).toHaveLength(0);
  });

  it('accepts a file of exactly 20 MB', async () => {
    void start([file('edge.png', 20 * 1024 * 1024)]);
    await settle();
    expect(FakeXhr.sent).toHaveLength(1);
  });

  it('refuses a file the browser cannot decode, but lets the server judge HEIC it cannot show', async () => {
    const done = start([
      file('text-renamed.png'),
      file('heic-photo.heic', 10, 'image/heic'),
      file('heic-looking.jpg', 10, 'image/jpeg'),
    ]);
    await settle();
    expect(sentNames()).toEqual(['heic-photo.heic']);
    expect(tile('text-renamed.png')).toMatchObject({
      phase: 'failed',
      error: 'Rejected text-renamed.png: not a supported image',
      canRetry: false,
      preview: null,
    });
    expect(tile('heic-looking.jpg')?.error).toBe(
      'Rejected heic-looking.jpg: not a supported image',
    );
    expect(tile('heic-photo.heic')).toMatchObject({ phase: 'sending', preview: null });
    FakeXhr.sent[0]?.respond(201, created('heic'));
    await done;
  });

  it('stops and drops the tiles when the page leaves', async () => {
    const done = start([file('a.png'), file('b.png'), file('c.png'), file('d.png')]);
    await settle();
    useGallery.getState().cancelUploads('me');
    await done;
    expect(FakeXhr.sent).toHaveLength(3);
    expect(names()).toEqual([]);
    expect(status()).toBeUndefined();
    await settle();
    expect(FakeXhr.sent).toHaveLength(3);
  });

  it('holds shared files on tiles until Upload, refusing those the browser would refuse', async () => {
    const shared = [
      file('a.png'),
      file('text-notes.png'),
      file('big.png', 20 * 1024 * 1024 + 1),
      file('b.png'),
    ].map((item, index) => ({ id: index + 1, file: item }));
    await useGallery.getState().holdShared(owner, shared);
    expect(FakeXhr.sent).toEqual([]);
    expect(tiles().map((item) => [item.name, item.phase])).toEqual([
      ['a.png', 'held'],
      ['text-notes.png', 'failed'],
      ['big.png', 'failed'],
      ['b.png', 'held'],
    ]);
    expect(tile('text-notes.png')?.error).toBe('Rejected text-notes.png: not a supported image');
    expect(tile('big.png')?.error).toBe('Rejected big.png: >20MB');
    expect(tile('a.png')?.preview).toBe(shared[0]?.file);

    // The same share handed again (the profile opened twice) adds nothing.
    await useGallery.getState().holdShared(owner, shared);
    expect(tiles()).toHaveLength(4);

    useGallery.getState().removeHeld(tile('a.png')?.key ?? '');
    const done = useGallery.getState().sendHeld(owner, { canEdit: true, folder: 'Trips' });
    await settle();
    expect(sentNames()).toEqual(['b.png']);
    expect(FakeXhr.sent[0]?.body?.get('folder')).toBe('Trips');
    FakeXhr.sent[0]?.respond(201, created('img-b'));
    await done;
    expect(tiles().map((item) => item.name)).toEqual(['text-notes.png', 'big.png']);
  });

  it('gives each file its own Idempotency-Key, kept when the file is sent again', async () => {
    const done = start([file('a.png'), file('b.png')]);
    await settle();
    const [a, b] = FakeXhr.sent;
    const keyA = a?.headers['Idempotency-Key'];
    expect(keyA).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(b?.headers['Idempotency-Key']).not.toBe(keyA);
    a?.onerror?.();
    b?.respond(201, created('img-b'));
    await done;
    const retried = useGallery.getState().retryUpload(tile('a.png')?.key ?? '');
    await settle();
    expect(FakeXhr.sent[2]?.headers['Idempotency-Key']).toBe(keyA);
    FakeXhr.sent[2]?.respond(201, created('img-a'));
    await retried;
    expect(names()).toEqual([]);
  });

  it('keeps a file the worker kept offline on its tile as waiting, until it leaves the outbox', async () => {
    const done = start([file('a.png')]);
    await settle();
    const [sent] = FakeXhr.sent;
    const key = sent?.headers['Idempotency-Key'] ?? '';
    sent?.respond(202, JSON.stringify({ error: 'Waiting to send' }), 'Accepted', {
      'x-orbit-offline': '1',
    });
    await done;
    expect(tile('a.png')).toMatchObject({ phase: 'queued', sendKey: key });
    expect(status()).toBe('Waiting to send a.png');
    expect(useGallery.getState().uploads.filter((item) => item.phase === 'failed')).toEqual([]);

    // An outbox read from before the file was kept changes nothing; once listed, leaving settles it.
    useOutboxItems.setState({ items: [] });
    expect(tile('a.png')?.phase).toBe('queued');
    const item: OutboxItem = {
      id: 1,
      at: 0,
      key,
      method: 'POST',
      path: '/api/gallery',
      json: undefined,
    };
    useOutboxItems.setState({ items: [item] });
    expect(tile('a.png')?.listed).toBe(true);
    useOutboxItems.setState({ items: [] });
    expect(tile('a.png')).toBeUndefined();
  });

  describe('offline, with a worker that keeps what is sent', () => {
    const MB = 1024 * 1024;
    let estimate: { quota: number; usage: number };
    beforeEach(() => {
      useNetwork.setState({ online: false });
      vi.stubGlobal('navigator', {
        ...navigator,
        onLine: false,
        serviceWorker: { controller: {} },
        storage: { estimate: () => Promise.resolve(estimate) },
      });
    });
    afterEach(() => {
      useNetwork.setState({ online: true });
    });

    it('hands over the files that fit beside the margin and refuses the rest, in the order picked', async () => {
      // 16 MB margin, 3 MB of room past it: the first 2 MB file fits, the second would not.
      estimate = { quota: 100 * MB, usage: 81 * MB };
      const done = start([file('a.png', 2 * MB), file('b.png', 2 * MB), file('c.png', 100)]);
      await vi.advanceTimersByTimeAsync(0);
      await vi.advanceTimersByTimeAsync(0);
      expect(sentNames()).toEqual(['a.png', 'c.png']);
      expect(tile('b.png')).toMatchObject({
        phase: 'failed',
        error: "Failed b.png: Not enough space on this device to keep it until you're back online.",
        canRetry: true,
      });
      for (const xhr of FakeXhr.sent)
        xhr.respond(202, '{}', 'Accepted', { 'x-orbit-offline': '1' });
      await done;
      expect(tiles().map((item) => [item.name, item.phase])).toEqual([
        ['a.png', 'queued'],
        ['b.png', 'failed'],
        ['c.png', 'queued'],
      ]);
    });

    it('sends every file where the browser does not tell the space', async () => {
      vi.stubGlobal('navigator', {
        ...navigator,
        onLine: false,
        serviceWorker: { controller: {} },
      });
      const done = start([file('a.png', 2 * MB)]);
      await settle();
      expect(sentNames()).toEqual(['a.png']);
      FakeXhr.sent[0]?.respond(202, '{}', 'Accepted', { 'x-orbit-offline': '1' });
      await done;
    });
  });
});
