import { IosInstallHint } from './IosInstallHint.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import './offline.css';

/** Notices about the app itself, on every page: a new version, and how to install on iOS. */
export function AppNotices() {
  return (
    <div className="app-notices">
      <UpdatePrompt />
      <IosInstallHint />
    </div>
  );
}
