import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IosInstallHint } from './IosInstallHint.tsx';
import {
  IOS_HINT_DISMISSED_KEY,
  type InstallPromptEvent,
  isIosSafari,
  isStandalone,
  useInstall,
  watchInstall,
} from './install.ts';
import { installApp } from './installActions.ts';

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
const IPAD_DESKTOP_SAFARI =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1';
const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0.0.0 Mobile Safari/537.36';

function installOffer(): InstallPromptEvent {
  return Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
    prompt: vi.fn(() => Promise.resolve()),
    userChoice: Promise.resolve({ outcome: 'accepted' as const }),
  });
}

beforeEach(() => {
  useInstall.setState({ offer: null, iosHintAsked: false });
  localStorage.clear();
});
afterEach(cleanup);

describe('the install offer', () => {
  it("is kept instead of the browser's own banner", () => {
    const stop = watchInstall(window);
    const offer = installOffer();
    window.dispatchEvent(offer);
    expect(offer.defaultPrevented).toBe(true);
    expect(useInstall.getState().offer).toBe(offer);
    stop();
  });

  it('is gone once the app is installed', () => {
    const stop = watchInstall(window);
    window.dispatchEvent(installOffer());
    window.dispatchEvent(new Event('appinstalled'));
    expect(useInstall.getState().offer).toBeNull();
    stop();
  });

  it("shows the browser's dialog, and only once", async () => {
    const offer = installOffer();
    useInstall.setState({ offer });
    await installApp();
    await installApp();
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    expect(useInstall.getState().offer).toBeNull();
  });
});

describe('running installed', () => {
  const withStandalone = (standalone: boolean | undefined, displayMode: boolean) =>
    ({
      navigator: { standalone },
      matchMedia: (query: string) => ({
        matches: displayMode && query === '(display-mode: standalone)',
      }),
    }) as unknown as Window;

  it('is told by the display mode', () =>
    expect(isStandalone(withStandalone(undefined, true))).toBe(true));
  it("is told by iOS's navigator.standalone", () =>
    expect(isStandalone(withStandalone(true, false))).toBe(true));
  it('is not the case in a browser tab', () =>
    expect(isStandalone(withStandalone(false, false))).toBe(false));
});

describe('iOS Safari', () => {
  it('is recognised on an iPhone', () => expect(isIosSafari(IPHONE_SAFARI, 5)).toBe(true));
  it('is recognised on an iPad asking for desktop pages', () =>
    expect(isIosSafari(IPAD_DESKTOP_SAFARI, 5)).toBe(true));
  it('is not a Mac without a touch screen', () =>
    expect(isIosSafari(IPAD_DESKTOP_SAFARI, 0)).toBe(false));
  it('is not Chrome on iOS', () => expect(isIosSafari(IPHONE_CHROME, 5)).toBe(false));
  it('is not Android', () => expect(isIosSafari(ANDROID_CHROME, 5)).toBe(false));
});

describe('the iOS install hint', () => {
  const asIphone = () =>
    vi.spyOn(Navigator.prototype, 'userAgent', 'get').mockReturnValue(IPHONE_SAFARI);
  const text = 'Install Orbit: tap Share, then Add to Home Screen';

  it('shows on iOS Safari and stays dismissed', () => {
    asIphone();
    const { unmount } = render(<IosInstallHint />);
    expect(screen.getByRole('complementary', { name: 'Install hint' }).textContent).toContain(text);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss install hint' }));
    expect(screen.queryByText(text)).toBeNull();
    expect(localStorage.getItem(IOS_HINT_DISMISSED_KEY)).toBe('1');
    unmount();
    render(<IosInstallHint />);
    expect(screen.queryByText(text)).toBeNull();
  });

  it('shows again, though dismissed, when the member asks from the menu', () => {
    asIphone();
    localStorage.setItem(IOS_HINT_DISMISSED_KEY, '1');
    render(<IosInstallHint />);
    expect(screen.queryByText(text)).toBeNull();
    act(() => useInstall.getState().askIosHint(true));
    expect(screen.getByRole('complementary', { name: 'Install hint' }).textContent).toContain(text);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss install hint' }));
    expect(screen.queryByText(text)).toBeNull();
  });

  it('does not show elsewhere', () => {
    vi.spyOn(Navigator.prototype, 'userAgent', 'get').mockReturnValue(ANDROID_CHROME);
    render(<IosInstallHint />);
    expect(screen.queryByText(text)).toBeNull();
  });

  it('does not show in the home-screen app', () => {
    asIphone();
    Object.defineProperty(navigator, 'standalone', { value: true, configurable: true });
    try {
      render(<IosInstallHint />);
      expect(screen.queryByText(text)).toBeNull();
    } finally {
      Reflect.deleteProperty(navigator, 'standalone');
    }
  });
});
