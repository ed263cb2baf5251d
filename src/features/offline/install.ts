/**
 * Installing Orbit: browsers that offer installation fire `beforeinstallprompt`, kept here for the
 * menu's `Install Orbit` and the install card; iOS Safari offers it only through its Share sheet,
 * so it gets a hint, which the menu's entry brings back. What the first page needs; the install
 * itself is in installActions.ts.
 */
import { create } from 'zustand';

/** Chromium's install prompt event (not in the DOM library yet). */
export interface InstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

export const IOS_HINT_DISMISSED_KEY = 'orbit:ios-hint:dismissed';

interface InstallState {
  /** The browser's offer to install, while it stands. */
  offer: InstallPromptEvent | null;
  /** The member asked (from the menu) to see the iOS hint, even after dismissing it once. */
  iosHintAsked: boolean;
  setOffer: (offer: InstallPromptEvent | null) => void;
  askIosHint: (asked: boolean) => void;
}

export const useInstall = create<InstallState>()((set) => ({
  offer: null,
  iosHintAsked: false,
  setOffer: (offer) => set({ offer }),
  askIosHint: (iosHintAsked) => set({ iosHintAsked }),
}));

/** Running from the home screen or as an installed app window. */
export function isStandalone(target: Window = window): boolean {
  const nav = target.navigator as Navigator & { standalone?: boolean };
  if (nav.standalone === true) return true;
  return (
    typeof target.matchMedia === 'function' &&
    target.matchMedia('(display-mode: standalone)').matches
  );
}

/** Keeps the browser's install offer instead of its own mini-infobar; returns the function that stops. */
export function watchInstall(target: Window = window): () => void {
  const onOffer = (event: Event) => {
    event.preventDefault();
    useInstall.getState().setOffer(event as InstallPromptEvent);
  };
  const onInstalled = () => useInstall.getState().setOffer(null);
  target.addEventListener('beforeinstallprompt', onOffer);
  target.addEventListener('appinstalled', onInstalled);
  return () => {
    target.removeEventListener('beforeinstallprompt', onOffer);
    target.removeEventListener('appinstalled', onInstalled);
  };
}

/** Whether the browser offers installation here (never inside the installed app). */
export function useCanInstall(): boolean {
  const offered = useInstall((state) => state.offer !== null);
  return offered && !isStandalone();
}

/**
 * iPhone and iPad Safari. iPadOS asks for desktop pages and names itself a Mac, but a Mac has no
 * touch screen; Chrome, Firefox, Edge and Opera on iOS carry their own marks.
 */
export function isIosSafari(userAgent: string, maxTouchPoints: number): boolean {
  const ios =
    /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
  return ios && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(userAgent);
}

/** The iOS hint is for Safari outside the home-screen app. */
export function needsIosHint(target: Window = window): boolean {
  const { userAgent, maxTouchPoints } = target.navigator;
  return isIosSafari(userAgent, maxTouchPoints) && !isStandalone(target);
}
