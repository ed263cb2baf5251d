import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../features/auth/store.ts';
import { normaliseUser } from '../contracts/readers/user.ts';
import { type InstallPromptEvent, useInstall, watchInstall } from '../features/offline/install.ts';
import { Menu } from './Menu.tsx';

function offer(): InstallPromptEvent {
  return Object.assign(new Event('beforeinstallprompt'), {
    prompt: vi.fn(() => Promise.resolve()),
    userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
  });
}

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

function openMenu() {
  render(
    <MemoryRouter initialEntries={['/spacehub']}>
      <Menu />
    </MemoryRouter>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
}

beforeEach(() => useInstall.setState({ offer: null }));
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe("the menu's Install Orbit entry", () => {
  it('is there while the browser offers installation', () => {
    useInstall.setState({ offer: offer() });
    openMenu();
    const entry = screen.getByRole('button', { name: 'Install Orbit' });
    expect(entry.closest('li')?.textContent).toBe('Install Orbit');
    expect(entry.hasAttribute('disabled')).toBe(false);
  });

  it('comes first, before the pages', () => {
    useInstall.setState({ offer: offer() });
    openMenu();
    const entries = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(entries[0]).toBe('Install Orbit');
  });

  it('shows the Share-sheet hint again on iOS Safari, which has no install dialog', () => {
    vi.spyOn(Navigator.prototype, 'userAgent', 'get').mockReturnValue(IPHONE_SAFARI);
    useInstall.setState({ iosHintAsked: false });
    openMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Install Orbit' }));
    expect(useInstall.getState().iosHintAsked).toBe(true);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('is not there without an offer', () => {
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install Orbit' })).toBeNull();
  });

  it("opens the browser's dialog and closes the menu", async () => {
    const event = offer();
    useInstall.setState({ offer: event });
    openMenu();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install Orbit' }));
      await Promise.resolve();
    });
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Menu' }));
  });

  it('comes with the offer and goes when the app was installed', () => {
    const stop = watchInstall(window);
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install Orbit' })).toBeNull();
    act(() => {
      window.dispatchEvent(offer());
    });
    expect(screen.getAllByRole('listitem')[0]?.textContent).toBe('Install Orbit');
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
    expect(screen.queryByRole('button', { name: 'Install Orbit' })).toBeNull();
    stop();
  });

  it('is not offered inside the installed app', () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query === '(display-mode: standalone)' })),
    );
    useInstall.setState({ offer: offer() });
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install Orbit' })).toBeNull();
    vi.unstubAllGlobals();
  });
});

describe("the menu's Reports entry", () => {
  const signIn = (isModerator: boolean) =>
    useSession.setState({
      status: 'signedIn',
      user: normaliseUser({ user: { id: 'u1', username: 'nova', isModerator } }),
    });
  afterEach(() => useSession.setState({ status: 'loading', user: null }));

  it('leads moderators to /moderation', () => {
    signIn(true);
    openMenu();
    expect(screen.getByRole('link', { name: 'Reports' }).getAttribute('href')).toBe('/moderation');
  });

  it('is not there for other members', () => {
    signIn(false);
    openMenu();
    expect(screen.getByRole('link', { name: 'Settings' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Reports' })).toBeNull();
  });
});
