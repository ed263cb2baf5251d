import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type InstallPromptEvent, useInstall, watchInstall } from '../features/offline/install.ts';
import { Menu } from './Menu.tsx';

function offer(): InstallPromptEvent {
  return Object.assign(new Event('beforeinstallprompt'), {
    prompt: vi.fn(() => Promise.resolve()),
    userChoice: Promise.resolve({ outcome: 'dismissed' as const }),
  });
}

function openMenu() {
  render(
    <MemoryRouter initialEntries={['/spacehub']}>
      <Menu />
    </MemoryRouter>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Menu' }));
}

beforeEach(() => useInstall.setState({ offer: null }));
afterEach(cleanup);

describe("the menu's Install app entry", () => {
  it('is there while the browser offers installation', () => {
    useInstall.setState({ offer: offer() });
    openMenu();
    expect(screen.getByRole('button', { name: 'Install app' })).toBeDefined();
  });

  it('is not there without an offer', () => {
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
  });

  it("opens the browser's dialog and closes the menu", async () => {
    const event = offer();
    useInstall.setState({ offer: event });
    openMenu();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Install app' }));
      await Promise.resolve();
    });
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();
  });

  it('comes with the offer and goes when the app was installed', () => {
    const stop = watchInstall(window);
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    act(() => {
      window.dispatchEvent(offer());
    });
    expect(screen.getByRole('button', { name: 'Install app' })).toBeDefined();
    act(() => {
      window.dispatchEvent(new Event('appinstalled'));
    });
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    stop();
  });

  it('is not offered inside the installed app', () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query === '(display-mode: standalone)' })),
    );
    useInstall.setState({ offer: offer() });
    openMenu();
    expect(screen.queryByRole('button', { name: 'Install app' })).toBeNull();
    vi.unstubAllGlobals();
  });
});
