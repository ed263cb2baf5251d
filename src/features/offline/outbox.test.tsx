import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useOutbox } from './outbox.ts';

describe('the outbox nudges', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ask the worker to send at start, when online and on focus, and stop when the shell goes', () => {
    const postMessage = vi.fn();
    vi.stubGlobal('navigator', { ...navigator, serviceWorker: { controller: { postMessage } } });
    const { unmount } = renderHook(() => useOutbox());
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('focus'));
    expect(postMessage.mock.calls).toEqual([
      [{ type: 'OUTBOX_REPLAY' }],
      [{ type: 'OUTBOX_REPLAY' }],
      [{ type: 'OUTBOX_REPLAY' }],
    ]);
    unmount();
    window.dispatchEvent(new Event('online'));
    expect(postMessage).toHaveBeenCalledTimes(3);
  });
});
