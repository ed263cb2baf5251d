import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UploadFailures } from './UploadTile.tsx';
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
