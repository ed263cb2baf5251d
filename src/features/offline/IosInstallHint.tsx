import { useRememberedDismissal } from './dismissal.ts';
import { IOS_HINT_DISMISSED_KEY, needsIosHint, useInstall } from './install.ts';
import { Notice } from './Notice.tsx';

/**
 * iOS Safari installs only from its Share sheet, so the way there is spelled out: once until
 * dismissed, and again whenever the member picks `Install Orbit` in the menu.
 */
export function IosInstallHint() {
  const [dismissed, remember] = useRememberedDismissal(IOS_HINT_DISMISSED_KEY);
  const asked = useInstall((state) => state.iosHintAsked);
  const askIosHint = useInstall((state) => state.askIosHint);
  if (!needsIosHint() || (dismissed && !asked)) return null;
  const dismiss = () => {
    remember();
    askIosHint(false);
  };
  return (
    <Notice
      label="Install hint"
      text="Install Orbit: tap Share, then Add to Home Screen"
      closeLabel="Dismiss install hint"
      onClose={dismiss}
    />
  );
}
