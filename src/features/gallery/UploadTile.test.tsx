import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useNetwork } from '../offline/store.ts';
import { UploadFailures, UploadTile, WaitingUploadsNote } from './UploadTile.tsx';
import { tileOfForm } from './waitingUploads.ts';
import type { PendingUpload } from './uploadSlice.ts';

const failed = (change: Partial<PendingUpload>): PendingUpload => ({
  key: 'upload-1',
  sendKey: 'key-1',
  ownerId: 'me',
  name: 'a.png',
  loaded: 0,
  total: 10,
  preview: null,
  phase: 'failed',
  error: 'Failed a.png: You’re uploading too much at once. Wait for the others to finish.',
  canRetry: true,
  file: new File([], 'a.png'),
  owner: { id: 'me', username: 'vega' },
  fields: {},
  checked: true,
  ...change,
});

describe('a failed upload above the grid', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('shows the server’s words and offers Retry only once its Retry-After has passed', () => {
    render(<UploadFailures uploads={[failed({ retryAt: Date.now() + 5_000 })]} />);
    expect(screen.getByRole('alert').textContent).toBe(
      'Failed a.png: You’re uploading too much at once. Wait for the others to finish.',
    );
    const retry = screen.getByRole('button', { name: 'Retry a.png' });
    expect(retry).toHaveProperty('disabled', true);
    act(() => {
      vi.advanceTimersByTime(4_999);
    });
    expect(retry).toHaveProperty('disabled', true);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(retry).toHaveProperty('disabled', false);
  });

  it('offers Retry at once when the server named no time', () => {
    render(<UploadFailures uploads={[failed({ error: 'Failed a.png: Upload failed (500)' })]} />);
    expect(screen.getByRole('button', { name: 'Retry a.png' })).toHaveProperty('disabled', false);
  });

  it('offers only Dismiss for a file refused for itself', () => {
    render(
      <UploadFailures
        uploads={[
          failed({ error: 'Failed a.png: That image is damaged or incomplete.', canRetry: false }),
        ]}
      />,
    );
    expect(screen.queryByRole('button', { name: 'Retry a.png' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Dismiss a.png' })).toBeTruthy();
  });
});

describe('an upload kept offline', () => {
  afterEach(() => {
    cleanup();
    useNetwork.setState({ online: true });
    vi.unstubAllGlobals();
  });

  it('shows Waiting to send on its tile, with no progress bar', () => {
    render(
      <ul>
        <UploadTile upload={failed({ phase: 'queued', error: undefined, canRetry: undefined })} />
      </ul>,
    );
    const tile = screen.getByRole('listitem', { name: 'a.png waiting to send' });
    expect(tile.textContent).toBe('Waiting to send');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('is counted with the room it takes on the device; nothing shows when none wait', () => {
    const kept = (name: string, size: number) =>
      failed({ phase: 'queued', name, file: new File([new Uint8Array(size)], name) });
    const { container, rerender } = render(
      <WaitingUploadsNote uploads={[kept('a.png', 1_500_000), kept('b.png', 1_700_000)]} />,
    );
    expect(container.textContent).toBe(
      "2 photos wait to be sent when you're back online (3.2 MB kept on this device).",
    );
    rerender(<WaitingUploadsNote uploads={[failed({})]} />);
    expect(container.textContent).toBe('');
  });

  it('is read back from the form the outbox keeps: its file, gallery and folder', () => {
    const form = new FormData();
    form.append('accountId', 'me');
    form.append('userId', 'me');
    form.append('username', 'vega');
    form.append('folder', 'Trips');
    form.append('image', new File([new Uint8Array(5)], 'dunes.jpg', { type: 'image/jpeg' }));
    const tile = tileOfForm('key-9', form);
    expect(tile).toMatchObject({
      key: 'outbox-key-9',
      sendKey: 'key-9',
      ownerId: 'me',
      name: 'dunes.jpg',
      phase: 'queued',
      owner: { id: 'me', username: 'vega' },
      fields: { accountId: 'me', userId: 'me', username: 'vega', folder: 'Trips' },
    });
    expect(tile?.file.size).toBe(5);
    form.delete('image');
    expect(tileOfForm('key-9', form)).toBeNull();
  });

  it('keeps Retry usable offline where a worker keeps what is sent, not without one', () => {
    useNetwork.setState({ online: false });
    const upload = failed({ error: 'Failed a.png: Could not reach the server' });
    const { unmount } = render(<UploadFailures uploads={[upload]} />);
    expect(screen.getByRole('button', { name: 'Retry a.png' })).toHaveProperty('disabled', true);
    unmount();
    vi.stubGlobal('navigator', {
      ...navigator,
      serviceWorker: { controller: {}, addEventListener() {}, removeEventListener() {} },
    });
    render(<UploadFailures uploads={[upload]} />);
    expect(screen.getByRole('button', { name: 'Retry a.png' })).toHaveProperty('disabled', false);
  });
});
