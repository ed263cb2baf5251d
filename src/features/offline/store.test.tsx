import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { request } from '../../lib/http.ts';
import { OfflineBanner } from './OfflineBanner.tsx';
import {
  OFFLINE_BANNER,
  OFFLINE_REASON,
  OFFLINE_REASON_ID,
  onBackOnline,
  useNeedsNetwork,
  useNetwork,
  watchNetwork,
} from './store.ts';

beforeEach(() => useNetwork.setState({ online: true, reconnects: 0 }));
afterEach(cleanup);

describe('the network state', () => {
  it('goes offline and back online, counting the returns', () => {
    const { markOffline, markOnline } = useNetwork.getState();
    markOffline();
    expect(useNetwork.getState()).toMatchObject({ online: false, reconnects: 0 });
    markOnline();
    expect(useNetwork.getState()).toMatchObject({ online: true, reconnects: 1 });
  });

  it('does not count a fresh answer while already online as a return', () => {
    useNetwork.getState().markOnline();
    expect(useNetwork.getState().reconnects).toBe(0);
  });

  it('tells listeners once per return to online', () => {
    const handler = vi.fn();
    const stop = onBackOnline(handler);
    const { markOffline, markOnline } = useNetwork.getState();
    markOffline();
    markOffline();
    expect(handler).not.toHaveBeenCalled();
    markOnline();
    markOnline();
    expect(handler).toHaveBeenCalledTimes(1);
    stop();
    markOffline();
    markOnline();
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it("follows the browser's offline and online events", () => {
    const stop = watchNetwork(window);
    window.dispatchEvent(new Event('offline'));
    expect(useNetwork.getState().online).toBe(false);
    window.dispatchEvent(new Event('online'));
    expect(useNetwork.getState().online).toBe(true);
    stop();
    window.dispatchEvent(new Event('offline'));
    expect(useNetwork.getState().online).toBe(true);
  });

  it('starts offline when the browser already is', () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const stop = watchNetwork(window);
    expect(useNetwork.getState().online).toBe(false);
    stop();
  });
});

describe('the network state and the HTTP client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('goes offline when a request cannot reach the server', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await request('GET', '/api/x').catch(() => undefined);
    expect(useNetwork.getState().online).toBe(false);
  });

  it('comes back online, counting the return, when a request gets a fresh answer', async () => {
    useNetwork.setState({ online: false });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{}', { status: 200 }))),
    );
    await request('GET', '/api/x');
    expect(useNetwork.getState()).toMatchObject({ online: true, reconnects: 1 });
  });
});

describe('controls that need the network', () => {
  it('keep their own disabled state while online', () => {
    const { result } = renderHook(() => useNeedsNetwork());
    expect(result.current(true)).toEqual({ disabled: true });
    expect(result.current()).toEqual({ disabled: false });
  });

  it('are disabled offline, with the reason as title and description', () => {
    useNetwork.setState({ online: false });
    const { result } = renderHook(() => useNeedsNetwork());
    expect(result.current()).toEqual({
      disabled: true,
      title: OFFLINE_REASON,
      'aria-describedby': OFFLINE_REASON_ID,
    });
  });
});

describe('the offline banner', () => {
  it('is announced while offline and holds the reason the controls point to', () => {
    useNetwork.setState({ online: false });
    render(<OfflineBanner />);
    expect(screen.getByRole('status').textContent).toContain(OFFLINE_BANNER);
    expect(document.getElementById(OFFLINE_REASON_ID)?.textContent).toBe(OFFLINE_REASON);
  });

  it('goes when the connection is back', () => {
    useNetwork.setState({ online: false });
    render(<OfflineBanner />);
    expect(screen.queryByText(OFFLINE_BANNER)).not.toBeNull();
    act(() => useNetwork.getState().markOnline());
    expect(screen.queryByText(OFFLINE_BANNER)).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
  });
});
