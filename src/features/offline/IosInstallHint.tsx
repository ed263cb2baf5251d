import { useState } from 'react';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { IOS_HINT_DISMISSED_KEY, needsIosHint, useInstall } from './install.ts';

/**
 * iOS Safari installs only from its Share sheet, so the way there is spelled out: once until
 * dismissed, and again whenever the member picks `Install Orbit` in the menu.
 */
export function IosInstallHint() {
  const [dismissed, setDismissed] = useState(() => readLocal(IOS_HINT_DISMISSED_KEY) !== null);
  const asked = useInstall((state) => state.iosHintAsked);
  const askIosHint = useInstall((state) => state.askIosHint);
  if (!needsIosHint() || (dismissed && !asked)) return null;
  const dismiss = () => {
    writeLocal(IOS_HINT_DISMISSED_KEY, '1');
    setDismissed(true);
    askIosHint(false);
  };
  return (
    <aside className="notice" aria-label="Install hint">
      <p className="notice-text">Install Orbit: tap Share, then Add to Home Screen</p>
      <button
        type="button"
        className="icon-button notice-close"
        aria-label="Dismiss install hint"
        onClick={dismiss}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </aside>
  );
}
