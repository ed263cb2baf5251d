import { Suspense, lazy } from 'react';
import { useSession } from '../auth/store.ts';
import { needsIosHint, useCanInstall, useInstall } from './install.ts';
import { useUpdate } from './update.ts';

const NoticeStrip = lazy(() =>
  import('./NoticeStrip.tsx').then((module) => ({ default: module.NoticeStrip })),
);

/**
 * Notices about the app itself (NoticeStrip.tsx): their code loads only once one may show, a new
 * version, the install offer to a member, or the iPhone's install hint, so a first page without
 * any loads none of it.
 */
export function AppNotices() {
  const updating = useUpdate((state) => state.available);
  const canInstall = useCanInstall();
  const signedIn = useSession((state) => state.status === 'signedIn');
  const hintAsked = useInstall((state) => state.iosHintAsked);
  const due = updating || (canInstall && signedIn) || hintAsked || needsIosHint();
  if (!due) return null;
  return (
    <Suspense fallback={null}>
      <NoticeStrip />
    </Suspense>
  );
}
