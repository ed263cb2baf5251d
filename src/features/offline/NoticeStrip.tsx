import { InstallCard } from './InstallCard.tsx';
import { IosInstallHint } from './IosInstallHint.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import { useUpdate } from './update.ts';
import './offline.css';

/**
 * Notices about the app itself, on every page: a new version, or else how to install. One at a
 * time, in one compact strip at the foot of the screen. It comes after the page (main.tsx), so
 * its arrival moves nothing already shown; it stays in view at the bottom while the page scrolls,
 * and at the page's end it takes its own room, so nothing is ever out of reach under it.
 */
export function NoticeStrip() {
  const updating = useUpdate((state) => state.available);
  return (
    <div className="app-notices">
      <UpdatePrompt />
      {!updating && (
        <>
          <InstallCard />
          <IosInstallHint />
        </>
      )}
    </div>
  );
}
