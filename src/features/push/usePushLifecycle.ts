import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { isPushNavigateMessage } from '../../contracts/pushPayload.ts';
import { usePush } from './store.ts';

/** A notification click in the service worker moves this window without reloading it. */
function useWorkerNavigation() {
  const navigate = useNavigate();
  useEffect(() => {
    const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
    if (!worker) return;
    const onMessage = (event: MessageEvent) => {
      if (isPushNavigateMessage(event.data)) void navigate(event.data.url);
    };
    worker.addEventListener('message', onMessage);
    // Messages that came while the page was starting wait in a queue until this.
    worker.startMessages();
    return () => worker.removeEventListener('message', onMessage);
  }, [navigate]);
}

/** The home-screen badge counts what the member has not seen; seeing the app clears it. */
function useClearAppBadge() {
  useEffect(() => {
    if (!('clearAppBadge' in navigator)) return;
    const clear = () => {
      if (document.visibilityState === 'visible')
        void navigator.clearAppBadge().catch(() => undefined);
    };
    clear();
    document.addEventListener('visibilitychange', clear);
    return () => document.removeEventListener('visibilitychange', clear);
  }, []);
}

/**
 * Push for the signed-in member: the device is checked on load (and forgotten at logout, with the
 * member's state: src/features/push/store.ts).
 */
export function usePushLifecycle(userId: string | undefined) {
  useWorkerNavigation();
  useClearAppBadge();
  useEffect(() => {
    if (!userId) return;
    // A task after the page's commit, which it would otherwise lengthen: nothing shown waits on it.
    const timer = setTimeout(() => void usePush.getState().sync());
    return () => clearTimeout(timer);
  }, [userId]);
}
