import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import { AppNotices } from './AppNotices.tsx';
import { type InstallPromptEvent, useInstall } from './install.ts';
import { useUpdate } from './update.ts';

const offer = (): InstallPromptEvent =>
  Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(() => Promise.resolve()),
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  });

beforeEach(() => {
  localStorage.clear();
  useInstall.setState({ offer: offer() });
  useSession.setState({ status: 'signedIn' });
  useUpdate.setState({ available: false, activate: null });
});
afterEach(cleanup);

describe('the app notices', () => {
  it('offer the install alone while there is no new version', async () => {
    render(<AppNotices />);
    expect(await screen.findByRole('complementary', { name: 'Install Orbit' })).toBeTruthy();
    expect(screen.queryByText('A new version is available')).toBeNull();
  });

  it('show one prompt at a time: a new version puts the install offer away until it is dismissed', async () => {
    useUpdate.setState({ available: true, activate: vi.fn() });
    render(<AppNotices />);
    expect(await screen.findByText('A new version is available')).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Install Orbit' })).toBeNull();
    expect(document.querySelectorAll('.notice')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByText('A new version is available')).toBeNull();
    expect(screen.getByRole('complementary', { name: 'Install Orbit' })).toBeTruthy();
  });

  it('load nothing while none may show', () => {
    useInstall.setState({ offer: null });
    const { container } = render(<AppNotices />);
    expect(container.innerHTML).toBe('');
  });
});
