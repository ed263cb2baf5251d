import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_AVATAR } from '../../contracts/constants.ts';
import { EXPORT_INTERVAL_MS, EXPORT_TOO_SOON } from '../../contracts/safety.ts';
import {
  closeDatabase,
  readCurrentMember,
  readResponse,
  saveResponse,
  setCurrentMember,
} from '../../lib/idb.ts';
import { HttpError } from '../../lib/http.ts';
import { connectSessionAcrossTabs, useSession } from '../auth/store.ts';
import { connectOfflineSession } from '../offline/offlineSession.ts';
import { settingsApi } from './api.ts';
import { SettingsPage } from './SettingsPage.tsx';
import { useSettingsData } from './store.ts';
import { testMember } from '../../test/settings.ts';
import { withDialogMethods } from '../../test/dialog.ts';

const member = testMember();
const ME = 'https://orbit.test/api/auth/me';
const vega = { id: 'u2', username: 'vega', blockedAt: '2026-01-02T03:04:05Z' };
const lyra = { id: 'u3', username: 'lyra', blockedAt: '2026-01-01T03:04:05Z' };
/** A member who had blocked this one before this one blocked them: the block kept no name. */
const unnamed = { id: 'u4', username: null, blockedAt: '2025-12-31T03:04:05Z' };

const section = (name: string) => within(screen.getByRole('region', { name }));

/** Where the landing page would say its notice. */
function Landing() {
  const notice = (useLocation().state as { notice?: string } | null)?.notice;
  return <p data-testid="landing">{notice}</p>;
}

function renderSettings() {
  return render(
    <MemoryRouter initialEntries={['/settings']}>
      <Routes>
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/landing" element={<Landing />} />
      </Routes>
    </MemoryRouter>,
  );
}

/** Settings with these members blocked, once their rows are shown; unblocking answers ok. */
async function blockedList(users: Awaited<ReturnType<typeof settingsApi.blocks>>['users']) {
  vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users });
  const unblock = vi.spyOn(settingsApi, 'unblock').mockResolvedValue({ ok: true });
  renderSettings();
  const blocked = section('Blocked members');
  const rows = await blocked.findAllByRole('listitem');
  /** Unblocks by the button's name: the toast says `toast`, the call names `id`, `left` stay. */
  const unblockBy = async (button: string, toast: string, id: string, left: string[]) => {
    fireEvent.click(blocked.getByRole('button', { name: button }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(toast));
    expect(unblock).toHaveBeenCalledWith(id);
    expect(blocked.getAllByRole('listitem').map((row) => row.textContent)).toEqual(left);
  };
  return { rows, unblockBy };
}

/** Messages this tab posts to the other tabs on `orbit:auth`. */
const posted: unknown[] = [];
class TabChannel {
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(readonly name: string) {}
  postMessage(data: unknown) {
    posted.push({ channel: this.name, data });
  }
  close() {}
}

let disconnect = () => {};

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  localStorage.clear();
  posted.length = 0;
  vi.stubGlobal('BroadcastChannel', TabChannel);
  const stops = [connectSessionAcrossTabs(), connectOfflineSession()];
  disconnect = () => {
    for (const stop of stops) stop();
  };
  useSession.setState({ status: 'signedIn', user: member, error: null });
  vi.spyOn(settingsApi, 'me').mockResolvedValue(member);
  withDialogMethods();
});
afterEach(async () => {
  cleanup();
  disconnect();
  useSettingsData.getState().reset();
  vi.unstubAllGlobals();
  await closeDatabase();
});

describe('Settings → Blocked members', () => {
  it('lists the members one blocked, and Unblock removes the row with a toast', async () => {
    const { rows, unblockBy } = await blockedList([vega, lyra]);
    expect(rows.map((row) => row.textContent)).toEqual(['@vegaUnblock', '@lyraUnblock']);
    // The picture is decorative beside the name.
    expect(rows[0]?.querySelector('img.avatar')?.getAttribute('alt')).toBe('');

    await unblockBy('Unblock @vega', 'Unblocked @vega', 'u2', ['@lyraUnblock']);
  });

  it('lists a member the block kept no name of as “A member you blocked”, and unblocks them', async () => {
    const { rows, unblockBy } = await blockedList([vega, unnamed]);
    expect(rows.map((row) => row.textContent)).toEqual([
      '@vegaUnblock',
      'A member you blockedUnblock',
    ]);
    // Nobody's picture: the default one beside every name.
    for (const row of rows)
      expect(row.querySelector('img.avatar')?.getAttribute('src')).toBe(DEFAULT_AVATAR);

    await unblockBy('Unblock a member you blocked', 'Member unblocked', 'u4', ['@vegaUnblock']);
  });

  it('says so when nobody is blocked', async () => {
    vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users: [] });
    renderSettings();
    expect(await section('Blocked members').findByText('You haven’t blocked anyone.')).toBeTruthy();
  });

  it('keeps the row when the unblock fails, and says why', async () => {
    vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users: [vega] });
    vi.spyOn(settingsApi, 'unblock').mockRejectedValue(new HttpError(500, 'x'));
    renderSettings();
    const blocked = section('Blocked members');
    fireEvent.click(await blocked.findByRole('button', { name: 'Unblock @vega' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Could not save. Please try again.'),
    );
    expect(blocked.getAllByRole('listitem')).toHaveLength(1);
  });
});

describe('Settings → Download my data', () => {
  it('is a link to the streamed zip, and a second one within 10 minutes is refused here', async () => {
    vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users: [] });
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_000_000);
    renderSettings();
    await section('Blocked members').findByText('You haven’t blocked anyone.');
    const data = section('Download my data');
    const link = data.getByRole('link', { name: 'Download my data' });
    expect(link.getAttribute('href')).toMatch(/\/api\/auth\/export$/);
    expect(link.getAttribute('download')).toBe('orbit-nova.zip');

    const first = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => void link.dispatchEvent(first));
    expect(first.defaultPrevented).toBe(false);
    expect(data.queryByRole('alert')).toBeNull();

    now.mockReturnValue(1_000_000 + EXPORT_INTERVAL_MS - 1);
    const second = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => void link.dispatchEvent(second));
    expect(second.defaultPrevented).toBe(true);
    expect(data.getByRole('alert').textContent).toBe(EXPORT_TOO_SOON);

    now.mockReturnValue(1_000_000 + EXPORT_INTERVAL_MS);
    const third = new MouseEvent('click', { bubbles: true, cancelable: true });
    act(() => void link.dispatchEvent(third));
    expect(third.defaultPrevented).toBe(false);
    expect(data.queryByRole('alert')).toBeNull();
  });
});

describe('Settings → Danger zone', () => {
  async function openDialog() {
    vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users: [] });
    renderSettings();
    fireEvent.click(section('Danger zone').getByRole('button', { name: 'Delete my account' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Delete your account?' }));
    return dialog;
  }

  it('asks for the password and the username, and Delete stays disabled until it matches', async () => {
    const remove = vi.spyOn(settingsApi, 'deleteAccount');
    const dialog = await openDialog();
    expect(
      dialog.getByText(
        'This removes your profile, photos, friends, notifications and everything else you own. It can’t be undone.',
      ),
    ).toBeTruthy();
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(confirm).toHaveProperty('disabled', true);
    const typed = dialog.getByLabelText('Type your username to confirm');
    fireEvent.change(typed, { target: { value: 'nov' } });
    expect(confirm).toHaveProperty('disabled', true);
    fireEvent.change(typed, { target: { value: ' NOVA ' } });
    expect(confirm).toHaveProperty('disabled', false);

    // No password: said under the field, and nothing is sent (a guess would be counted).
    fireEvent.click(confirm);
    expect(dialog.getByText('Enter your current password.')).toBeTruthy();
    expect(remove).not.toHaveBeenCalled();

    fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a wrong password is said under the Password field, and the member stays', async () => {
    vi.spyOn(settingsApi, 'deleteAccount').mockRejectedValue(
      new HttpError(400, 'x', 'Your current password is not correct.'),
    );
    const dialog = await openDialog();
    fireEvent.change(dialog.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.change(dialog.getByLabelText('Type your username to confirm'), {
      target: { value: 'nova' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Delete my account' }));
    const message = await dialog.findByText('Your current password is not correct.');
    const password = dialog.getByLabelText('Password');
    expect(password.getAttribute('aria-describedby')).toContain(message.id);
    await waitFor(() => expect(document.activeElement).toBe(password));
    expect(useSession.getState().status).toBe('signedIn');
    expect(posted).toEqual([]);
  });

  it('deleting signs the member out here and in the other tabs, wipes the offline copies and lands with the notice', async () => {
    await setCurrentMember(member.id);
    await saveResponse({
      userId: member.id,
      url: ME,
      status: 200,
      contentType: 'application/json',
      body: '{}',
    });
    localStorage.setItem('token', 'session-token');
    const remove = vi.spyOn(settingsApi, 'deleteAccount').mockResolvedValue({ ok: true });
    // The logout call after the deletion finds no session left: it changes nothing.
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('{"error":"Sign in first."}', { status: 401 }))),
    );
    const dialog = await openDialog();
    fireEvent.change(dialog.getByLabelText('Password'), { target: { value: 'Orbit#Pass1' } });
    fireEvent.change(dialog.getByLabelText('Type your username to confirm'), {
      target: { value: 'nova' },
    });
    fireEvent.click(dialog.getByRole('button', { name: 'Delete my account' }));

    expect((await screen.findByTestId('landing')).textContent).toBe(
      'Your account has been deleted.',
    );
    expect(remove).toHaveBeenCalledWith({ password: 'Orbit#Pass1', username: 'nova' });
    expect(useSession.getState()).toMatchObject({ status: 'signedOut', user: null });
    expect(localStorage.getItem('token')).toBeNull();
    expect(posted).toContainEqual({ channel: 'orbit:auth', data: { type: 'logout' } });
    expect(await readResponse(member.id, ME)).toBeNull();
    expect(await readCurrentMember()).toBeNull();
  });
});
