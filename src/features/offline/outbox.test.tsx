import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetMemberState } from '../../lib/memberState.ts';
import { whileShown } from '../../lib/serverState.ts';
import { OutboxNotice } from './OutboxNotice.tsx';
import { waitingItem } from '../../test/outbox.ts';
import {
  NOT_SENT,
  receiveOutboxResult,
  useOutbox,
  useOutboxItems,
  useOutboxNotice,
} from './outbox.ts';

/** A service worker container with a worker in control that keeps what it is sent. */
function workerInControl() {
  const postMessage = vi.fn();
  const container = Object.assign(new EventTarget(), { controller: { postMessage } });
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: container });
  return { postMessage, container };
}

describe('the outbox nudges', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ask the worker to send at start, when online and on focus, and stop when the shell goes', () => {
    const { postMessage } = workerInControl();
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

describe('the outbox results', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    useOutboxNotice.getState().dismiss();
  });

  it('list the refusals in the server’s words in one notice, until dismissed', () => {
    render(<OutboxNotice />);
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
    act(() => {
      receiveOutboxResult({ type: 'outbox', key: 'k1', result: 'refused', error: 'Not found' });
      receiveOutboxResult({ type: 'outbox', key: 'k2', result: 'sent' });
      receiveOutboxResult({ type: 'outbox', key: 'k3', result: 'refused' });
    });
    expect(screen.getByText('2 changes made offline could not be sent:')).toBeTruthy();
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Not found',
      NOT_SENT,
    ]);
    act(() => screen.getByRole('button', { name: 'Dismiss' }).click());
    expect(screen.queryByRole('listitem')).toBeNull();
  });

  it('read again what is shown once items settle, once for a burst, not for a wait', async () => {
    vi.useFakeTimers();
    const refetch = vi.fn();
    const stop = whileShown(refetch, { live: false });
    receiveOutboxResult({ type: 'outbox', key: 'k0', result: 'waiting' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refetch).not.toHaveBeenCalled();
    receiveOutboxResult({ type: 'outbox', key: 'k1', result: 'sent' });
    receiveOutboxResult({ type: 'outbox', key: 'k2', result: 'refused', error: 'Gone' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(refetch.mock.calls).toEqual([['online']]);
    stop();
  });

  it('hears the worker’s messages while the shell is shown, and the notice goes with the member', async () => {
    const { container } = workerInControl();
    const { unmount } = renderHook(() => useOutbox());
    container.dispatchEvent(
      new MessageEvent('message', {
        data: { type: 'outbox', key: 'k1', result: 'refused', error: 'Gone' },
      }),
    );
    expect(useOutboxNotice.getState().refused).toEqual(['Gone']);
    unmount();
    container.dispatchEvent(
      new MessageEvent('message', { data: { type: 'outbox', key: 'k2', result: 'refused' } }),
    );
    expect(useOutboxNotice.getState().refused).toEqual(['Gone']);
    await resetMemberState({ memberId: 'm1', ended: false });
    expect(useOutboxNotice.getState().refused).toEqual([]);
  });
});

describe('the list of what waits', () => {
  it('drops a settled item by its key at once, and keeps the others and a retried one', () => {
    useOutboxItems.setState({
      items: [
        waitingItem(1, 'PATCH', '/api/gallery/p1', { likes: true }),
        waitingItem(2, 'PATCH', '/api/gallery/p2', { caption: 'Sea' }),
        waitingItem(3, 'PATCH', '/api/gallery/p3', { likes: true }),
      ],
    });
    receiveOutboxResult({ type: 'outbox', key: 'key-1', result: 'sent' });
    receiveOutboxResult({ type: 'outbox', key: 'key-3', result: 'waiting' });
    receiveOutboxResult({ type: 'outbox', key: 'key-2', result: 'refused', error: 'Gone' });
    expect(useOutboxItems.getState().items.map((item) => item.key)).toEqual(['key-3']);
    useOutboxNotice.getState().dismiss();
  });
});
