/**
 * Uploading offline (docs/decisions.md "The offline outbox"): a file sent with no network is kept
 * by the service worker until the network is back, so `Upload` and `Retry` stay usable offline
 * where a worker controls the page. Without one nothing would keep the file, and they need the
 * network as before.
 */
import { useSyncExternalStore } from 'react';
import { type NetworkActionProps, useNeedsNetwork, useNetwork } from '../offline/store.ts';

/** Whether a service worker controls this page, so a file sent offline is kept. */
export const canKeepOffline = (): boolean =>
  typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);

/** Whether the page knows it is offline now (the browser says so, or a request found no server). */
export const knownOffline = (): boolean =>
  !useNetwork.getState().online || (typeof navigator !== 'undefined' && navigator.onLine === false);

function subscribe(change: () => void): () => void {
  const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  worker?.addEventListener('controllerchange', change);
  return () => worker?.removeEventListener('controllerchange', change);
}

/** For components: whether a worker controls the page, following a change of worker. */
function useCanKeepOffline(): boolean {
  return useSyncExternalStore(subscribe, canKeepOffline, () => false);
}

/**
 * Props for `Upload` and `Retry`: like `useNeedsNetwork`, but usable offline while a worker keeps
 * what is sent then. `uploadProps(busy)` disables them for the control's own reasons.
 */
export function useUploadNeedsNetwork(): (disabled?: boolean) => NetworkActionProps {
  const needsNetwork = useNeedsNetwork();
  const keeps = useCanKeepOffline();
  return (disabled = false) => (keeps ? { disabled } : needsNetwork(disabled));
}
