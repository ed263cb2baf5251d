import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import { InstallCard } from './InstallCard.tsx';
import { type InstallPromptEvent, useInstall } from './install.ts';
import { INSTALL_CARD_DISMISSED_KEY } from './installActions.ts';

function installOffer(): InstallPromptEvent {
  return Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(() => Promise.resolve()),
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  });
}

const card = () => screen.queryByRole('complementary', { name: 'Install Orbit' });

beforeEach(() => {
  localStorage.clear();
  useInstall.setState({ offer: installOffer() });
  useSession.setState({ status: 'signedIn' });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the install card', () => {
  it('shows a signed-in member the offer, with Install and a dismiss button', () => {
    render(<InstallCard />);
    const shown = card();
    expect(shown?.textContent).toContain('Install Orbit to open it from your home screen');
    expect(shown?.contains(screen.getByRole('button', { name: 'Install' }))).toBe(true);
    expect(shown?.contains(screen.getByRole('button', { name: 'Dismiss install offer' }))).toBe(
      true,
    );
  });

  it("opens the browser's dialog and goes, the offer being used", async () => {
    const offer = installOffer();
    useInstall.setState({ offer });
    render(<InstallCard />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install' }));
      await Promise.resolve();
    });
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    expect(card()).toBeNull();
  });

  it('stays away once dismissed, on this device', () => {
    const { unmount } = render(<InstallCard />);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss install offer' }));
    expect(card()).toBeNull();
    expect(localStorage.getItem(INSTALL_CARD_DISMISSED_KEY)).toBe('1');
    unmount();
    render(<InstallCard />);
    expect(card()).toBeNull();
  });

  it('is not shown without an offer', () => {
    useInstall.setState({ offer: null });
    render(<InstallCard />);
    expect(card()).toBeNull();
  });

  it('is not shown to visitors who are not signed in', () => {
    useSession.setState({ status: 'signedOut' });
    render(<InstallCard />);
    expect(card()).toBeNull();
  });

  it('is not shown inside the installed app', () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query === '(display-mode: standalone)' })),
    );
    render(<InstallCard />);
    expect(card()).toBeNull();
  });
});
