import { useState } from 'react';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { useSession } from '../auth/store.ts';
import { INSTALL_CARD_DISMISSED_KEY, installApp, useCanInstall } from './install.ts';

/**
 * The browser's install offer, put where a member on a phone sees it: a card among the app
 * notices, for signed-in members only (the installed app opens their profile; a visitor has
 * nothing to open yet). It never blocks the page, and dismissing it is remembered on this device; the
 * menu's `Install Orbit` stays for later.
 */
export function InstallCard() {
  const canInstall = useCanInstall();
  const signedIn = useSession((state) => state.status === 'signedIn');
  const [dismissed, setDismissed] = useState(() => readLocal(INSTALL_CARD_DISMISSED_KEY) !== null);
  if (!canInstall || !signedIn || dismissed) return null;
  const dismiss = () => {
    writeLocal(INSTALL_CARD_DISMISSED_KEY, '1');
    setDismissed(true);
  };
  return (
    <aside className="notice" aria-label="Install Orbit">
      <p className="notice-text">Install Orbit to open it from your home screen</p>
      <button type="button" className="button primary" onClick={() => void installApp()}>
        Install
      </button>
      <button
        type="button"
        className="icon-button notice-close"
        aria-label="Dismiss install offer"
        onClick={dismiss}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </aside>
  );
}
