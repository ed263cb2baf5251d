import { useSession } from '../auth/store.ts';
import { useRememberedDismissal } from './dismissal.ts';
import { useCanInstall } from './install.ts';
import { INSTALL_CARD_DISMISSED_KEY, installApp } from './installActions.ts';
import { Notice } from './Notice.tsx';

/**
 * The browser's install offer, put where a member on a phone sees it: a card among the app
 * notices, for signed-in members only (the installed app opens their profile; a visitor has
 * nothing to open yet). It never blocks the page, and dismissing it is remembered on this device; the
 * menu's `Install Orbit` stays for later.
 */
export function InstallCard() {
  const canInstall = useCanInstall();
  const signedIn = useSession((state) => state.status === 'signedIn');
  const [dismissed, dismiss] = useRememberedDismissal(INSTALL_CARD_DISMISSED_KEY);
  if (!canInstall || !signedIn || dismissed) return null;
  return (
    <Notice
      label="Install Orbit"
      text="Install Orbit to open it from your home screen"
      action={{ label: 'Install', onClick: () => void installApp() }}
      closeLabel="Dismiss install offer"
      onClose={dismiss}
    />
  );
}
