import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../auth/user.ts';
import { useGallery } from './store.ts';
import { galleryImage, json } from './testImages.ts';

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
  respond(status: number, body: string, statusText = '') {
    this.status = status;
    this.statusText = statusText;
    this.responseText = body;
    this.onload?.();
  }
}

const owner = { id: 'me', username: 'vega' };
const file = (name: string, size = 10) =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });
const status = () => useGallery.getState().uploadStatus.me;
const placeholders = () => useGallery.getState().uploads.map((item) => item.name);
const settle = () => vi.advanceTimersByTimeAsync(0);

describe('uploading', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(json({ images: [] }))),
    );
    useGallery.getState().reset();
    useGallery.setState({ galleries: { me: { status: 'ready', images: [], folders: ['All'] } } });
    useSession.setState({
      status: 'signedIn',
      user: { id: 'me', username: 'vega' } as CurrentUser,
    });
    localStorage.setItem('token', 'tok');
  });
  afterEach(() => {
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

  it('shows every placeholder at once, then each file’s progress, result and the reloaded list', async () => {
    const uploaded = galleryImage('img-a', {
      user: { _id: 'me', id: 'me', username: 'vega', profileImage: '' },
    });
    vi.mocked(fetch).mockImplementation(() =>
      Promise.resolve(json({ images: [uploaded, galleryImage('old')] })),
    );
    const done = useGallery
      .getState()
      .upload(owner, [file('a.png'), file('b.png')], { canEdit: true, folder: 'All' });
    expect(status()).toBe('Selected 2 file(s)…');
    expect(placeholders()).toEqual(['b.png', 'a.png']);
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
    expect((first?.body?.get('image') as File).name).toBe('a.png');

    first?.progress(5, 10);
    expect(useGallery.getState().uploads.find((item) => item.name === 'a.png')).toMatchObject({
      loaded: 5,
      total: 10,
    });
    first?.respond(201, JSON.stringify({ image: uploaded }));
    await settle();
    expect(status()).toBe('Uploaded a.png');
    expect(placeholders()).toEqual(['b.png']);
    expect(useGallery.getState().galleries.me?.images.map((image) => image.id)).toEqual([
      'img-a',
      'old',
    ]);
    expect(
      vi
        .mocked(fetch)
        .mock.calls.some(([url]) => (url as string).includes('/api/gallery?userId=me')),
    ).toBe(true);

    FakeXhr.sent[1]?.respond(500, 'x'.repeat(200), 'Internal Server Error');
    await done;
    expect(status()).toBe(`Failed b.png: 500 Internal Server Error ${'x'.repeat(160)}`);
    expect(placeholders()).toEqual([]);
    vi.advanceTimersByTime(2_200);
    expect(status()).toBeUndefined();
  });

  it('rejects a file over 20 MB before sending it, and sends the others', async () => {
    const big = file('big.jpg', 20 * 1024 * 1024 + 1);
    const done = useGallery
      .getState()
      .upload(owner, [big, file('ok.png')], { canEdit: true, folder: 'Trips' });
    expect(placeholders()).toEqual(['ok.png']);
    expect(status()).toBe('Rejected big.jpg: >20MB');
    await settle();
    expect(FakeXhr.sent).toHaveLength(1);
    expect(FakeXhr.sent[0]?.body?.get('folder')).toBe('Trips');
    FakeXhr.sent[0]?.respond(201, JSON.stringify({ image: galleryImage('ok') }));
    await done;
    expect(status()).toBe('Uploaded ok.png');
  });

  it('accepts a file of exactly 20 MB', async () => {
    void useGallery
      .getState()
      .upload(owner, [file('edge.png', 20 * 1024 * 1024)], { canEdit: true, folder: 'All' });
    await settle();
    expect(FakeXhr.sent).toHaveLength(1);
  });

  it('reads a network failure as Failed {file}: Network error', async () => {
    const done = useGallery
      .getState()
      .upload(owner, [file('a.png')], { canEdit: true, folder: 'All' });
    await settle();
    FakeXhr.sent[0]?.onerror?.();
    await done;
    expect(status()).toBe('Failed a.png: Network error');
    expect(placeholders()).toEqual([]);
  });

  it('stops and drops the placeholders when the page leaves', async () => {
    const done = useGallery
      .getState()
      .upload(owner, [file('a.png'), file('b.png')], { canEdit: true, folder: 'All' });
    await settle();
    useGallery.getState().cancelUploads('me');
    await done;
    expect(FakeXhr.sent).toHaveLength(1);
    expect(placeholders()).toEqual([]);
    expect(status()).toBeUndefined();
  });
});
