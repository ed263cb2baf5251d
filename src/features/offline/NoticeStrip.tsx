import { InstallCard } from './InstallCard.tsx';
import { IosInstallHint } from './IosInstallHint.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import { useUpdate } from './update.ts';
import './offline.css';

/**
 * Notices about the app itself, on every page: a new version, or else how to install. One at a
 * time, in one compact strip at the top of the page, above the top bar: it takes its own room in
 * the page and scrolls away with it, so it never covers anything.
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
