import { useState } from 'react';
import { readLocal, writeLocal } from '../../lib/storage.ts';
import { IOS_HINT_DISMISSED_KEY, needsIosHint } from './install.ts';

/** iOS Safari installs only from its Share sheet, so the way there is spelled out once. */
export function IosInstallHint() {
  const [shown, setShown] = useState(
    () => needsIosHint() && readLocal(IOS_HINT_DISMISSED_KEY) === null,
  );
  if (!shown) return null;
  const dismiss = () => {
    writeLocal(IOS_HINT_DISMISSED_KEY, '1');
    setShown(false);
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
