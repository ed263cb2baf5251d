/**
 * What waits in the offline outbox, as the member meets it (docs/product.md "Offline, install and
 * push"): the top bar's count and Settings → Waiting to send with Discard, on the real queue in
 * IndexedDB; the outbox goes with the member's session.
 */
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { setCurrentMember, wipeAll } from '../../lib/idb.ts';
import { resetMemberState } from '../../lib/memberState.ts';
import { type OutboxItem, readOutbox } from '../../lib/outboxQueue.ts';
import { keep } from '../../test/outbox.ts';
import { useSession } from '../auth/store.ts';
import { useNotifications } from '../notifications/store.ts';
import { WaitingToSend } from '../settings/WaitingToSend.tsx';
import { useOutboxItems } from './outbox.ts';
import { OutboxCount } from './OutboxCount.tsx';
import { outboxItemText } from './outboxItemText.ts';

const alice = { id: 'alice-id', username: 'alice' } as CurrentUser;
/** An item as the list holds it, for the words alone. */
const item = (method: string, path: string, json: unknown, form?: FormData): OutboxItem => ({
  id: 1,
  at: 0,
  key: 'k',
  method,
  path,
  json,
  ...(form ? { form: () => Promise.resolve(form) } : {}),
});

beforeEach(async () => {
  await setCurrentMember(alice.id);
  useSession.setState({ status: 'signedIn', user: alice, error: null });
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetMemberState({ memberId: alice.id, ended: true });
  useSession.setState({ status: 'signedOut', user: null, error: null });
  // Everything of everyone, the outboxes too.
  await wipeAll();
  expect(await readOutbox('bob-id')).toEqual([]);
});

describe('a waiting change in words', () => {
  it('names reactions, captions and folders of a photo', async () => {
    const photo = (json: unknown) => outboxItemText(item('PATCH', '/api/gallery/p1', json));
    expect(await photo({ accountId: 'a', likes: true })).toBe('Like a photo');
    expect(await photo({ likes: false })).toBe('Remove your like');
    expect(await photo({ dislikes: true })).toBe('Dislike a photo');
    expect(await photo({ dislikes: false })).toBe('Remove your dislike');
    expect(await photo({ caption: 'Sea at dusk' })).toBe('Caption: “Sea at dusk”');
    expect(await photo({ caption: ' ' })).toBe('Remove a caption');
    expect(await photo({ folder: 'Trips' })).toBe('Move a photo to “Trips”');
  });

  it('names the member of a friend answer as the page knows them, else neutrally', async () => {
    const friend = (action: string, json: unknown) =>
      outboxItemText(item('POST', `/api/users/friends/${action}`, json));
    expect(await friend('accept', { fromUserId: 'bob-id' })).toBe('Accept a friend request');
    useNotifications.setState({
      incoming: [
        {
          requestId: 'r1',
          user: { id: 'bob-id', username: 'bob', fullName: 'Bob', profileImage: '' },
          fromUserId: 'bob-id',
          toUserId: alice.id,
          createdAt: '2026-01-01T00:00:00.000Z',
        },
      ],
    });
    expect(await friend('accept', { fromUserId: 'bob-id' })).toBe(
      'Accept the friend request from @bob',
    );
    expect(await friend('decline', { fromUserId: 'bob-id' })).toBe(
      'Decline the friend request from @bob',
    );
    expect(await friend('cancel', { toUserId: 'carol-id', username: 'carol' })).toBe(
      'Cancel your friend request to @carol',
    );
    expect(await friend('cancel', { toUserId: 'dan-id' })).toBe('Cancel a friend request');
    useNotifications.setState({ incoming: [] });
  });

  it('names an upload by its file and folder', async () => {
    const form = new FormData();
    form.append('folder', 'Trips');
    form.append('image', new File(['jpeg'], 'sea.jpg', { type: 'image/jpeg' }));
    expect(await outboxItemText(item('POST', '/api/gallery', undefined, form))).toBe(
      'Upload sea.jpg to Trips',
    );
    form.delete('folder');
    expect(await outboxItemText(item('POST', '/api/gallery', undefined, form))).toBe(
      'Upload sea.jpg',
    );
  });
});

describe('the top bar’s count', () => {
  const renderCount = () =>
    render(
      <MemoryRouter>
        <OutboxCount />
      </MemoryRouter>,
    );

  it('is not there while nothing waits', async () => {
    renderCount();
    await act(() => useOutboxItems.getState().load());
    expect(screen.queryByRole('link')).toBeNull();
  });

  it('counts what waits, in agreeing words, and leads to Settings → Waiting to send', async () => {
    await keep(alice.id, 'PATCH', '/api/gallery/p1', { likes: true }, 1);
    renderCount();
    await act(() => useOutboxItems.getState().load());
    const link = screen.getByRole('link', { name: '1 change waiting to send' });
    expect(link.getAttribute('href')).toBe('/settings#settings-outbox');
    await keep(alice.id, 'PATCH', '/api/gallery/p2', { likes: true }, 2);
    await keep(alice.id, 'PATCH', '/api/gallery/p3', { caption: 'Hi' }, 3);
    await act(() => useOutboxItems.getState().load());
    expect(screen.getByRole('link', { name: '3 changes waiting to send' }).textContent).toContain(
      '3',
    );
  });
});

describe('Settings → Waiting to send', () => {
  const renderSection = (onToast = (_message: string) => {}) =>
    render(
      <MemoryRouter>
        <WaitingToSend onToast={onToast} />
      </MemoryRouter>,
    );

  it('says so when nothing waits', async () => {
    renderSection();
    expect(await screen.findByText('Nothing is waiting to send.')).toBeTruthy();
  });

  it('lists what waits oldest first, with when it was made, and Discard drops one for good', async () => {
    const at = Date.UTC(2026, 10, 28, 9, 30);
    await keep(alice.id, 'PATCH', '/api/gallery/p1', { likes: true }, at);
    await keep(alice.id, 'PATCH', '/api/gallery/p2', { caption: 'Sea at dusk' }, at + 60_000);
    const toasts: string[] = [];
    renderSection((message) => toasts.push(message));
    const list = await screen.findByRole('list');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('listitem')
          .map((row) => row.querySelector('.settings-outbox-text')?.textContent),
      ).toEqual(['Like a photo', 'Caption: “Sea at dusk”']),
    );
    expect(list.querySelector('time')?.getAttribute('dateTime')).toBe(new Date(at).toISOString());

    fireEvent.click(screen.getByRole('button', { name: 'Discard: Like a photo' }));
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(1));
    expect((await readOutbox(alice.id)).map((kept) => kept.path)).toEqual(['/api/gallery/p2']);
    expect(toasts).toEqual(['Discarded: Like a photo']);
    // Focus goes to the Discard now in the discarded one's place.
    expect(document.activeElement).toBe(
      screen.getByRole('button', { name: 'Discard: Caption: “Sea at dusk”' }),
    );
  });
});

describe('the member’s outbox when the session goes', () => {
  it('is wiped when the session ended, and kept when the server could not be reached', async () => {
    await keep(alice.id, 'PATCH', '/api/gallery/p1', { likes: true }, 1);
    await resetMemberState({ memberId: alice.id, ended: false });
    expect(await readOutbox(alice.id)).toHaveLength(1);
    await resetMemberState({ memberId: alice.id, ended: true });
    expect(await readOutbox(alice.id)).toEqual([]);
  });
});
