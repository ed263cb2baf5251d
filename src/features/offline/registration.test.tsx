import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerServiceWorker } from './registration.ts';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import { useUpdate } from './update.ts';

/** workbox-window's Workbox at its boundary: events in, register/update/messageSkipWaiting out. */
const { FakeWorkbox, workboxes } = vi.hoisted(() => {
  const created: InstanceType<typeof Fake>[] = [];
  class Fake extends EventTarget {
    register = vi.fn(() => Promise.resolve(undefined));
    update = vi.fn(() => Promise.resolve());
    messageSkipWaiting = vi.fn();
    constructor(
      readonly url: string,
      readonly options: unknown,
    ) {
      super();
      created.push(this);
    }
    emit(type: string, fields: Record<string, unknown> = {}) {
      this.dispatchEvent(Object.assign(new Event(type), fields));
    }
  }
  return { FakeWorkbox: Fake, workboxes: created };
});
vi.mock('workbox-window', () => ({ Workbox: FakeWorkbox }));

/** A window whose reload can be watched (jsdom's own location cannot be replaced). */
function fakeWindow(controlled: boolean) {
  const page = new EventTarget();
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  return Object.assign(page, {
    document,
    navigator: { serviceWorker: { controller: controlled ? {} : null } },
    location: { reload: vi.fn() },
    sessionStorage: window.sessionStorage,
    setInterval: (handler: () => void, ms: number) => window.setInterval(handler, ms),
    clearInterval: (id: number) => window.clearInterval(id),
  });
}

/** Registers as a page that a worker already controls (a return visit) or not (the first). */
async function register({ controlled = true } = {}) {
  const page = fakeWindow(controlled);
  const registration = registerServiceWorker({
    target: page as unknown as Window,
    checkEveryMs: 1_000,
  });
  await act(() => Promise.resolve());
  const workbox = workboxes.at(-1);
  if (!workbox) throw new Error('No Workbox was created');
  return { page, workbox, stop: registration.stop };
}

/** The update prompt on screen as a new worker starts waiting. */
function showWaiting(
  workbox: InstanceType<typeof FakeWorkbox>,
  fields: Record<string, unknown> = {},
) {
  render(<UpdatePrompt />);
  act(() => workbox.emit('waiting', fields));
}
const pressReload = () => fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
/** The member takes the waiting version with Reload. */
function acceptUpdate(
  workbox: InstanceType<typeof FakeWorkbox>,
  fields: Record<string, unknown> = {},
) {
  showWaiting(workbox, fields);
  pressReload();
}

/** A first visit, once its first worker has taken control (`fields` as workbox-window says it). */
async function firstWorkerInControl(fields: Record<string, unknown>) {
  const registered = await register({ controlled: false });
  registered.workbox.emit('controlling', fields);
  return registered;
}

beforeEach(() => {
  workboxes.length = 0;
  useUpdate.setState({ available: false, activate: null });
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('the update flow', () => {
  it('registers /sw.js for the whole site', async () => {
    const { workbox, stop } = await register();
    expect(workbox.url).toBe('/sw.js');
    expect(workbox.options).toEqual({ scope: '/' });
    expect(workbox.register).toHaveBeenCalledTimes(1);
    stop();
  });

  it('says nothing until a new worker is waiting', async () => {
    const { stop } = await register();
    render(<UpdatePrompt />);
    expect(screen.queryByText('A new version is available')).toBeNull();
    stop();
  });

  it('offers a worker that was already waiting when the page loaded', async () => {
    const { workbox, stop } = await register();
    showWaiting(workbox, { wasWaitingBeforeRegister: true });
    expect(screen.getByRole('status').textContent).toContain('A new version is available');
    expect(
      screen.getByRole('status').contains(screen.getByRole('button', { name: 'Reload' })),
    ).toBe(true);
    stop();
  });

  it('on Reload lets the worker take over, then reloads once', async () => {
    const { page, workbox, stop } = await register();
    acceptUpdate(workbox);
    expect(workbox.messageSkipWaiting).toHaveBeenCalledTimes(1);
    expect(page.location.reload).not.toHaveBeenCalled();
    workbox.emit('controlling', { isUpdate: true });
    workbox.emit('controlling', { isUpdate: true });
    expect(page.location.reload).toHaveBeenCalledTimes(1);
    stop();
  });

  it('reloads too when the new version came while the first worker was still new', async () => {
    // workbox-window then calls the new worker external and its `controlling` no update.
    const { page, workbox, stop } = await firstWorkerInControl({ isExternal: false });
    expect(page.location.reload).not.toHaveBeenCalled();
    acceptUpdate(workbox, { isExternal: true });
    workbox.emit('controlling', { isExternal: true, isUpdate: false });
    expect(page.location.reload).toHaveBeenCalledTimes(1);
    stop();
  });

  it('does not reload when the first worker takes control', async () => {
    const { page, stop } = await firstWorkerInControl({ isUpdate: false });
    expect(page.location.reload).not.toHaveBeenCalled();
    expect(useUpdate.getState().available).toBe(false);
    stop();
  });

  it('offers a reload when another tab started the new version', async () => {
    const { page, workbox, stop } = await register();
    render(<UpdatePrompt />);
    act(() => workbox.emit('controlling', { isUpdate: true }));
    expect(page.location.reload).not.toHaveBeenCalled();
    pressReload();
    expect(workbox.messageSkipWaiting).not.toHaveBeenCalled();
    expect(page.location.reload).toHaveBeenCalledTimes(1);
    stop();
  });

  it('can be put off with Not now', async () => {
    const { workbox, stop } = await register();
    showWaiting(workbox);
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByText('A new version is available')).toBeNull();
    stop();
  });

  it('looks for a new version periodically, when shown again and when back online', async () => {
    vi.useFakeTimers();
    const { page, workbox, stop } = await register();
    expect(workbox.update).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(workbox.update).toHaveBeenCalledTimes(1);
    page.document.dispatchEvent(new Event('visibilitychange'));
    expect(workbox.update).toHaveBeenCalledTimes(2);
    page.dispatchEvent(new Event('online'));
    expect(workbox.update).toHaveBeenCalledTimes(3);
    stop();
    await vi.advanceTimersByTimeAsync(5_000);
    page.dispatchEvent(new Event('online'));
    expect(workbox.update).toHaveBeenCalledTimes(3);
  });

  it('does not look while the page is hidden', async () => {
    const { page, workbox, stop } = await register();
    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    expect(workbox.update).not.toHaveBeenCalled();
    stop();
  });

  it('survives a failed check (offline)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { page, workbox, stop } = await register();
    workbox.update.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    page.dispatchEvent(new Event('online'));
    await act(() => Promise.resolve());
    expect(warn).toHaveBeenCalledWith('Update check failed', expect.any(TypeError));
    stop();
  });
});
