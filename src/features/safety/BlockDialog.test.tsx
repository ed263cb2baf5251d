import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROFILE_TOAST_MS } from '../../lib/constants.ts';
import { NO_SUCH_MEMBER } from '../../contracts/safety.ts';
import { Toast } from '../../components/Toast.tsx';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useArrivalToast } from '../profile/useArrivalToast.ts';
import { BlockDialog } from './BlockDialog.tsx';
import { answering, withDialogMethods } from '../../test/dialog.ts';

beforeEach(() => {
  withDialogMethods();
  useSession.setState({ status: 'signedIn', user: { id: 'me', username: 'nova' } as CurrentUser });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** Another member's page with the dialog open, and one's own page that shows the arrival toast. */
function OwnPage() {
  return (
    <main>
      <h1>own profile</h1>
      <Toast message={useArrivalToast()} />
      <p data-testid="history-state">{JSON.stringify(useLocation().state)}</p>
    </main>
  );
}

function openOn(onClose = vi.fn()) {
  render(
    <MemoryRouter initialEntries={['/profile/vega']}>
      <Routes>
        <Route
          path="/profile/vega"
          element={<BlockDialog open member={{ id: 'u9', username: 'vega' }} onClose={onClose} />}
        />
        <Route path="/profile/nova" element={<OwnPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return { onClose };
}

describe('blocking a member', () => {
  it('asks first, in the words of the product, with Cancel and Block', () => {
    const { onClose } = openOn();
    const dialog = screen.getByRole('dialog', { name: 'Block @vega?' });
    expect(dialog.querySelector('p')?.textContent).toBe(
      'They won’t find you in search or see your profile, photos or friends, and they can’t send you friend requests. You’ll stop being friends and any pending requests between you are removed. They won’t be told.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('blocks by id, then shows one’s own profile with the toast, once', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const server = answering(200, { ok: true });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    openOn();
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));

    expect(await screen.findByRole('heading', { name: 'own profile' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Blocked @vega'));
    // The history entry forgets the toast, so a reload or a return does not show it again.
    await waitFor(() => expect(screen.getByTestId('history-state').textContent).toBe('null'));
    expect(server.calls).toEqual([
      {
        url: expect.stringMatching(/\/api\/users\/blocks$/) as unknown,
        method: 'POST',
        body: { userId: 'u9' },
      },
    ]);
    act(() => {
      vi.advanceTimersByTime(PROFILE_TOAST_MS);
    });
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('shows the server’s words in the dialog and stays', async () => {
    vi.stubGlobal('fetch', vi.fn(answering(404, { error: NO_SUCH_MEMBER }).fetch));
    openOn();
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect((await screen.findByRole('alert')).textContent).toBe(NO_SUCH_MEMBER);
    expect(screen.getByRole('dialog', { name: 'Block @vega?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Block' })).toHaveProperty('disabled', false);
  });
});
