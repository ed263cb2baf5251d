import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../lib/http.ts';
import { authApi } from '../auth/api.ts';
import { useSession } from '../auth/store.ts';
import { settingsApi } from './api.ts';
import { SettingsPage } from './SettingsPage.tsx';
import { useSettingsData } from './store.ts';
import { testMember } from '../../test/settings.ts';

const member = testMember();

const section = (name: string) => within(screen.getByRole('region', { name }));
const flush = () => act(() => vi.advanceTimersByTimeAsync(0));
const ctrlS = () =>
  new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true });

const renderPage = () =>
  render(
    <MemoryRouter>
      <SettingsPage />
    </MemoryRouter>,
  );

/** The settings page, loaded, with Edit pressed on the section called `name`. */
async function openForEditing(name: string) {
  renderPage();
  await flush();
  const opened = section(name);
  fireEvent.click(opened.getByRole('button', { name: 'Edit' }));
  return opened;
}

/** Presses a section's Save and lets the answer arrive. */
async function save(opened: ReturnType<typeof section>) {
  fireEvent.click(opened.getByRole('button', { name: 'Save' }));
  await flush();
}

/** Saves Basic Info with these fields changed while the server refuses with `status` and `message`. */
async function basicInfoRefused(status: number, message: string, fields: Record<string, string>) {
  vi.spyOn(settingsApi, 'updateProfile').mockRejectedValue(new HttpError(status, 'x', message));
  const basic = await openForEditing('Step 1 Basic Info');
  for (const [label, value] of Object.entries(fields))
    fireEvent.change(basic.getByLabelText(label), { target: { value } });
  await save(basic);
  return basic;
}

beforeEach(() => {
  vi.useFakeTimers();
  useSession.setState({ status: 'signedIn', user: member, error: null });
  vi.spyOn(settingsApi, 'me').mockResolvedValue(member);
  vi.spyOn(settingsApi, 'blocks').mockResolvedValue({ users: [] });
});
afterEach(() => {
  cleanup();
  useSettingsData.getState().reset();
  vi.useRealTimers();
});

describe('the settings page', () => {
  it('shows the birthday read-only as YYYY-MM-DD', async () => {
    renderPage();
    await flush();
    const birthday = section('Step 1 Basic Info').getByLabelText('Birthday');
    expect(birthday).toHaveProperty('value', '1990-01-02');
    expect(birthday).toHaveProperty('readOnly', true);
  });

  it('Ctrl+S saves the section being edited, and the toast goes after 3 s', async () => {
    const patch = vi
      .spyOn(settingsApi, 'updateProfile')
      .mockResolvedValue({ ...member, referral: 'FRIEND' });
    const referral = await openForEditing('Step 4 Referral');
    fireEvent.change(referral.getByLabelText('Referred by'), { target: { value: ' FRIEND ' } });
    const event = ctrlS();
    act(() => void window.dispatchEvent(event));
    expect(event.defaultPrevented).toBe(true);
    await flush();
    expect(patch).toHaveBeenCalledWith({ referral: 'FRIEND' });
    expect(screen.getByRole('status')).toHaveProperty('textContent', 'Referral updated.');
    expect(referral.queryByRole('button', { name: 'Save' })).toBeNull();
    expect(referral.getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', false);
    expect(useSession.getState().user?.referral).toBe('FRIEND');
    await act(() => vi.advanceTimersByTimeAsync(2_999));
    expect(screen.getByRole('status').textContent).toBe('Referral updated.');
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('Ctrl+S does nothing special while no section is being edited', async () => {
    renderPage();
    await flush();
    const event = ctrlS();
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
  });

  it('only one section can be edited at a time', async () => {
    renderPage();
    await flush();
    fireEvent.click(section('Step 1 Basic Info').getByRole('button', { name: 'Edit' }));
    for (const name of ['Step 2 Security', 'Step 3 Profile', 'Step 4 Referral']) {
      expect(section(name).getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', true);
    }
  });

  it('a 409 on the username shows Username already taken. under the field and in the toast', async () => {
    vi.spyOn(settingsApi, 'checkUsername').mockResolvedValue({ available: true, reason: null });
    const basic = await basicInfoRefused(409, 'Username already taken', { Username: 'orion' });
    const username = basic.getByLabelText('Username');
    expect(username.getAttribute('aria-describedby')).toBe(
      basic.getByText('Username already taken.').id,
    );
    expect(screen.getByRole('status').textContent).toBe('Username already taken.');
    expect(username).toHaveProperty('value', 'orion');
    expect(basic.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false);
  });

  it('a wrong current password is said once, under that field, and not in a toast', async () => {
    vi.spyOn(settingsApi, 'changePassword').mockRejectedValue(
      new HttpError(400, 'x', 'Your current password is not correct.'),
    );
    const security = await openForEditing('Step 2 Security');
    fireEvent.change(security.getByLabelText('Current password'), { target: { value: 'wrong' } });
    fireEvent.change(security.getByLabelText('New password'), { target: { value: 'N3w$ecret!' } });
    fireEvent.change(security.getByLabelText('Confirm new password'), {
      target: { value: 'N3w$ecret!' },
    });
    await save(security);
    expect(screen.getAllByText('Your current password is not correct.')).toHaveLength(1);
    expect(screen.getByRole('status').textContent).toBe('');
    const current = security.getByLabelText('Current password');
    expect(document.activeElement).toBe(current);
    expect(current.getAttribute('aria-describedby')).toBe(
      security.getByText('Your current password is not correct.').id,
    );
  });

  it('asks for the current password only once the email changes, and sends it', async () => {
    vi.spyOn(settingsApi, 'checkUsername').mockResolvedValue({
      available: true,
      reason: 'current',
    });
    const patch = vi
      .spyOn(settingsApi, 'updateProfile')
      .mockResolvedValue({ ...member, email: 'vega@orbit.example' });
    const basic = await openForEditing('Step 1 Basic Info');
    expect(basic.queryByLabelText('Current password')).toBeNull();
    fireEvent.change(basic.getByLabelText('Email'), { target: { value: 'vega@orbit.example' } });

    await save(basic);
    const current = basic.getByLabelText('Current password');
    expect(patch).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(current);
    expect(basic.getByText('Enter your current password.')).toBeTruthy();

    fireEvent.change(current, { target: { value: 'Orbit#Pass1' } });
    await save(basic);
    expect(patch).toHaveBeenCalledWith({
      firstName: 'Nova',
      lastName: 'Star',
      username: 'nova',
      email: 'vega@orbit.example',
      currentPassword: 'Orbit#Pass1',
    });
    expect(screen.getByRole('status').textContent).toBe('Basic info saved.');
    expect(basic.queryByLabelText('Current password')).toBeNull();
  });

  it('shows the server’s wrong current password at the field of Basic Info', async () => {
    vi.spyOn(settingsApi, 'checkUsername').mockResolvedValue({
      available: true,
      reason: 'current',
    });
    const basic = await basicInfoRefused(400, 'Your current password is not correct.', {
      Email: 'vega@orbit.example',
      'Current password': 'wrong',
    });
    const current = basic.getByLabelText('Current password');
    expect(current.getAttribute('aria-describedby')).toContain(
      basic.getByText('Your current password is not correct.').id,
    );
    // Security has a current password too: the message is not repeated there.
    expect(screen.getAllByText('Your current password is not correct.')).toHaveLength(1);
    expect(document.activeElement).toBe(current);
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('sends the current password with a new security question, and changes no password', async () => {
    const patch = vi.spyOn(settingsApi, 'updateProfile').mockResolvedValue(member);
    const change = vi.spyOn(settingsApi, 'changePassword');
    const security = await openForEditing('Step 2 Security');
    fireEvent.change(security.getByLabelText('Security question'), {
      target: { value: 'First rocket?' },
    });
    fireEvent.change(security.getByLabelText('Security answer'), { target: { value: 'Vostok' } });

    await save(security);
    expect(patch).not.toHaveBeenCalled();
    expect(security.getByText('Enter your current password.')).toBeTruthy();

    fireEvent.change(security.getByLabelText('Current password'), {
      target: { value: 'Orbit#Pass1' },
    });
    await save(security);
    expect(patch).toHaveBeenCalledWith({
      securityQuestion: 'First rocket?',
      securityAnswer: 'Vostok',
      currentPassword: 'Orbit#Pass1',
    });
    expect(change).not.toHaveBeenCalled();
    expect(screen.getByRole('status').textContent).toBe('Security question saved.');
  });

  it('Undo Changes and Cancel put the values back', async () => {
    const basic = await openForEditing('Step 1 Basic Info');
    const first = basic.getByLabelText('First name');
    fireEvent.change(first, { target: { value: 'Orion' } });
    fireEvent.click(basic.getByRole('button', { name: 'Undo Changes' }));
    expect(first).toHaveProperty('value', 'Nova');
    fireEvent.change(first, { target: { value: 'Orion' } });
    fireEvent.click(basic.getByRole('button', { name: 'Cancel' }));
    expect(basic.getByLabelText('First name')).toHaveProperty('value', 'Nova');
    expect(basic.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(basic.getByRole('button', { name: 'Edit' })).toHaveProperty('disabled', false);
  });

  it('says the member may be signed out when /me fails', async () => {
    vi.spyOn(settingsApi, 'me').mockRejectedValue(new HttpError(401, 'x'));
    // The 401 makes the app ask who is signed in; here the session holds.
    vi.spyOn(authApi, 'me').mockResolvedValue(member);
    renderPage();
    await flush();
    expect(screen.getByRole('alert').textContent).toBe(
      'You may be signed out. Please log in again.',
    );
  });

  it('copies the referral code', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    renderPage();
    await flush();
    fireEvent.click(section('Step 4 Referral').getByRole('button', { name: 'Copy code' }));
    await flush();
    expect(writeText).toHaveBeenCalledWith('NOVA42');
    expect(screen.getByRole('status').textContent).toBe('Referral code copied!');
    vi.unstubAllGlobals();
  });
});
