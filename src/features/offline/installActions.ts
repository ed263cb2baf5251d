/**
 * What installing does when a member asks for it (the menu's `Install Orbit`, the install card),
 * apart from install.ts, which the first page loads to keep the browser's offer.
 */
import { needsIosHint, useCanInstall, useInstall } from './install.ts';

export const INSTALL_CARD_DISMISSED_KEY = 'orbit:install-card:dismissed';

/** Shows the browser's install dialog; an offer can be used once, whatever the member answers. */
export async function installApp(): Promise<void> {
  const offer = useInstall.getState().offer;
  if (!offer) return;
  useInstall.getState().setOffer(null);
  try {
    await offer.prompt();
    await offer.userChoice;
  } catch (error) {
    console.warn('The install dialog could not be shown', error);
  }
}

/**
 * What the menu's `Install Orbit` does here: the browser's dialog, the iOS Share-sheet hint, or
 * nothing (already installed, or a browser that does not install web apps).
 */
export function useInstallAction(): (() => void) | undefined {
  const canInstall = useCanInstall();
  const askIosHint = useInstall((state) => state.askIosHint);
  if (canInstall) return () => void installApp();
  if (needsIosHint()) return () => askIosHint(true);
  return undefined;
}
