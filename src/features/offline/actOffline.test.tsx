import { act, cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CaptionEditor } from '../gallery/CaptionEditor.tsx';
import { ViewerMeta } from '../gallery/ViewerMeta.tsx';
import { FriendActions } from '../friends/FriendActions.tsx';
import { galleryImage } from '../../test/gallery.ts';
import { waitingItem } from '../../test/outbox.ts';
import { useOutboxItems } from './outbox.ts';
import { OFFLINE_REASON, useNetwork } from './store.ts';

/** The page's service worker container, with a worker in control or none. */
function serviceWorkerContainer(controlled: boolean) {
  const container = Object.assign(new EventTarget(), { controller: controlled ? {} : null });
  vi.stubGlobal('navigator', { ...navigator, serviceWorker: container });
  return container;
}

const enabled = () =>
  Object.fromEntries(
    screen
      .getAllByRole('button')
      .map((button) => [button.textContent?.trim(), !button.hasAttribute('disabled')]),
  );

beforeEach(() => useNetwork.setState({ online: false }));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  useNetwork.setState({ online: true });
  useOutboxItems.setState({ items: [] });
});

describe('answers to friend requests offline', () => {
  it('are enabled while a worker controls the page, which keeps them; adding and unfriending are not', () => {
    serviceWorkerContainer(true);
    const { rerender } = render(<FriendActions status="incoming" onAct={vi.fn()} />);
    expect(enabled()).toEqual({ Accept: true, Decline: true });
    rerender(<FriendActions status="pending" onAct={vi.fn()} />);
    expect(enabled()).toEqual({ Cancel: true });
    rerender(<FriendActions status="none" onAct={vi.fn()} />);
    expect(enabled()).toEqual({ Add: false });
    expect(screen.getByRole('button', { name: 'Add' }).title).toBe(OFFLINE_REASON);
    rerender(<FriendActions status="friends" onAct={vi.fn()} onUnfriend={vi.fn()} />);
    expect(enabled()).toEqual({ Unfriend: false });
  });

  it('stay disabled without a worker: nothing could keep them', () => {
    serviceWorkerContainer(false);
    render(<FriendActions status="incoming" onAct={vi.fn()} />);
    expect(enabled()).toEqual({ Accept: false, Decline: false });
  });

  it('are enabled once a worker takes control', () => {
    const container = serviceWorkerContainer(false);
    render(<FriendActions status="incoming" onAct={vi.fn()} />);
    expect(enabled()).toEqual({ Accept: false, Decline: false });
    act(() => {
      container.controller = {};
      container.dispatchEvent(new Event('controllerchange'));
    });
    expect(enabled()).toEqual({ Accept: true, Decline: true });
  });
});

describe('a caption offline', () => {
  const editor = (mode: 'view' | 'editing', waiting = false) =>
    render(
      <CaptionEditor
        caption="Sea"
        mode={mode}
        onModeChange={vi.fn()}
        onSave={vi.fn<(caption: string) => Promise<void>>().mockResolvedValue()}
        waiting={waiting}
      />,
    );

  it('can be saved while a worker controls the page, and not without one', () => {
    serviceWorkerContainer(true);
    editor('editing');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(false);
    cleanup();
    serviceWorkerContainer(false);
    editor('editing');
    expect(screen.getByRole('button', { name: 'Save' }).hasAttribute('disabled')).toBe(true);
  });

  it('is marked while it waits to be sent', () => {
    editor('view', true);
    expect(screen.getByText('Sea')).toBeTruthy();
    expect(screen.getByText('Waiting to send')).toBeTruthy();
    cleanup();
    editor('view');
    expect(screen.queryByText('Waiting to send')).toBeNull();
  });
});

describe('the viewer offline', () => {
  const viewerOf = (image = galleryImage('a', { caption: 'Sea' })) =>
    render(
      <MemoryRouter>
        <ViewerMeta
          image={image}
          meId="me"
          online={undefined}
          canEdit
          folders={['All', 'Trips']}
          captionMode="view"
          onCaptionMode={vi.fn()}
          onSaveCaption={vi.fn()}
          onReact={vi.fn()}
          onMove={vi.fn()}
        />
      </MemoryRouter>,
    );
  const like = () => screen.getByRole('button', { name: /^Like\b/ });

  it('takes a like or a dislike while a worker controls the page; moving to a folder waits for the network', () => {
    serviceWorkerContainer(true);
    viewerOf();
    expect(like().hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('button', { name: /^Dislike\b/ }).hasAttribute('disabled')).toBe(false);
    expect(screen.getByRole('combobox', { name: 'Folder' }).hasAttribute('disabled')).toBe(true);
  });

  it('takes neither without a worker', () => {
    serviceWorkerContainer(false);
    viewerOf();
    expect(like().hasAttribute('disabled')).toBe(true);
  });

  it('marks a waiting reaction and a waiting caption of this photo, and no other photo’s', () => {
    serviceWorkerContainer(true);
    viewerOf();
    expect(screen.queryByText('Waiting to send')).toBeNull();
    act(() =>
      useOutboxItems.setState({
        items: [
          waitingItem(1, 'PATCH', '/api/gallery/b', { accountId: 'me', likes: true }),
          waitingItem(2, 'PATCH', '/api/gallery/a', { accountId: 'me', likes: true }),
        ],
      }),
    );
    expect(screen.getAllByText('Waiting to send')).toHaveLength(1);
    const mark = screen.getByText('Waiting to send');
    expect(like().getAttribute('aria-describedby')).toBe(mark.id);
    act(() =>
      useOutboxItems.setState({
        items: [
          ...useOutboxItems.getState().items,
          waitingItem(3, 'PATCH', '/api/gallery/a', { accountId: 'me', caption: 'Sea' }),
        ],
      }),
    );
    expect(screen.getAllByText('Waiting to send')).toHaveLength(2);
    // Sent: the marks go.
    act(() => useOutboxItems.setState({ items: [] }));
    expect(screen.queryByText('Waiting to send')).toBeNull();
    expect(like().getAttribute('aria-describedby')).toBeNull();
  });
});
