/**
 * Logout with changes waiting in the offline outbox asks first (docs/decisions.md "The offline
 * outbox"), on the real queue in IndexedDB and the real session store.
 */
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../contracts/readers/user.ts';
import { useSession } from '../features/auth/store.ts';
import { setCurrentMember, wipeAll } from '../lib/idb.ts';
import { resetMemberState } from '../lib/memberState.ts';
import { readOutbox } from '../lib/outboxQueue.ts';
import { withDialogMethods } from '../test/dialog.ts';
import { keep } from '../test/outbox.ts';
import { Menu } from './Menu.tsx';

const alice = { id: 'alice-id', username: 'alice' } as CurrentUser;

beforeEach(async () => {
  withDialogMethods();
  await setCurrentMember(alice.id);
  useSession.setState({ status: 'signedIn', user: alice, error: null });
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await resetMemberState({ memberId: alice.id, ended: true });
  useSession.setState({ status: 'signedOut', user: null, error: null });
  await wipeAll();
});

describe('logout with changes waiting', () => {
  function renderMenu() {
    render(
      <MemoryRouter initialEntries={['/spacehub']}>
        <Routes>
          <Route path="/spacehub" element={<Menu />} />
          <Route path="/landing" element={<p>Landing</p>} />
        </Routes>
      </MemoryRouter>,
    );
  }
  const logOut = () => {
    fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
    fireEvent.click(screen.getByRole('button', { name: 'Logout' }));
  };

  beforeEach(() => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
    );
  });

  it('asks first; Cancel keeps the member signed in and the changes waiting', async () => {
    await keep(alice.id, 'PATCH', '/api/gallery/p1', { likes: true }, 1);
    await keep(alice.id, 'PATCH', '/api/gallery/p2', { likes: true }, 2);
    await keep(alice.id, 'PATCH', '/api/gallery/p3', { likes: true }, 3);
    renderMenu();
    logOut();
    const dialog = await screen.findByRole('dialog', {
      name: '3 changes haven’t been sent. Log out and discard them?',
    });
    expect(
      within(dialog)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Cancel', 'Log out']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Menu' }));
    expect(useSession.getState().user?.id).toBe(alice.id);
    expect(await readOutbox(alice.id)).toHaveLength(3);
  });

  it('Log out then discards them with the rest of the member’s copies', async () => {
    await keep(alice.id, 'PATCH', '/api/gallery/p1', { likes: true }, 1);
    await keep('bob-id', 'PATCH', '/api/gallery/p9', { likes: true }, 2);
    renderMenu();
    logOut();
    const dialog = await screen.findByRole('dialog', {
      name: '1 change hasn’t been sent. Log out and discard it?',
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Log out' }));
    expect(await screen.findByText('Landing')).toBeTruthy();
    expect(useSession.getState().status).toBe('signedOut');
    expect(await readOutbox(alice.id)).toEqual([]);
    // Another member's waiting changes are theirs.
    expect(await readOutbox('bob-id')).toHaveLength(1);
  });

  it('logs out at once when nothing waits', async () => {
    renderMenu();
    logOut();
    expect(await screen.findByText('Landing')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
