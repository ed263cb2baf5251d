/**
 * Whether the server can be reached (docs/product.md "Offline, install and push"): the browser's own
 * online/offline events, and what the HTTP client learns from each request it makes.
 */
import { useSyncExternalStore } from 'react';
import { create } from 'zustand';
import type { OfflineNote } from '../../components/ActionMenu.tsx';
import type { EndpointPath } from '../../contracts/endpoints.paths.ts';
import { onConnection } from '../../lib/http.ts';

export const OFFLINE_BANNER = "You're offline — showing saved data";
/** Why an action that needs the network is disabled (its title and accessible description). */
export const OFFLINE_REASON = "You're offline. This needs a connection.";
/** The element holding OFFLINE_REASON, for `aria-describedby` (rendered with the banner). */
export const OFFLINE_REASON_ID = 'orbit-offline-reason';

interface NetworkState {
  /** `navigator.onLine`, and false after a request failed to reach the server. */
  online: boolean;
  /**
   * Counts the returns to online; src/app/useRealtime.ts then reads again what is shown, which
   * may have come from the saved copies (docs/architecture.md "Client state").
   */
  reconnects: number;
  markOffline: () => void;
  markOnline: () => void;
}

export const useNetwork = create<NetworkState>()((set, get) => ({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  reconnects: 0,
  markOffline: () => {
    if (get().online) set({ online: false });
  },
  markOnline: () => {
    if (!get().online) set((state) => ({ online: true, reconnects: state.reconnects + 1 }));
  },
}));

// Every request's outcome moves the state, whichever module made the request.
onConnection((reachable) => {
  const network = useNetwork.getState();
  if (reachable) network.markOnline();
  else network.markOffline();
});

/** For components: whether actions that need the network should be disabled. */
export function useOffline(): boolean {
  return useNetwork((state) => !state.online);
}

/** Runs `handler` each time the connection comes back (the socket and what is on screen). */
export function onBackOnline(handler: () => void): () => void {
  return useNetwork.subscribe((state, previous) => {
    if (state.reconnects !== previous.reconnects) handler();
  });
}

/** Follows the browser's online and offline events; returns the function that stops. */
export function watchNetwork(target: Window = window): () => void {
  const { markOnline, markOffline } = useNetwork.getState();
  const online = () => markOnline();
  const offline = () => markOffline();
  target.addEventListener('online', online);
  target.addEventListener('offline', offline);
  if (!target.navigator.onLine) markOffline();
  return () => {
    target.removeEventListener('online', online);
    target.removeEventListener('offline', offline);
  };
}

/** Hears the page's worker take or give up control. */
function watchController(changed: () => void): () => void {
  const container = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
  container?.addEventListener('controllerchange', changed);
  return () => container?.removeEventListener('controllerchange', changed);
}
const hasController = (): boolean =>
  typeof navigator !== 'undefined' && Boolean(navigator.serviceWorker?.controller);

/**
 * Whether `call` can be taken offline now (docs/decisions.md "The offline outbox"): the endpoint
 * table marks it `outbox`, and a service worker controls the page to keep it until the network is
 * back. Without a worker nothing is kept, so it needs the network like any other call.
 */
export function useCanWait(call: EndpointPath | undefined): boolean {
  const controlled = useWorkerInControl();
  return canWait(call, controlled);
}
const canWait = (call: EndpointPath | undefined, controlled: boolean): boolean =>
  Boolean(call?.outbox) && controlled;
const useWorkerInControl = (): boolean =>
  useSyncExternalStore(watchController, hasController, () => false);

export interface NetworkActionProps {
  disabled: boolean;
  title?: string;
  'aria-describedby'?: string;
}

/**
 * Props for controls that need the network: disabled while offline, with the reason as their
 * title and description. `needsNetwork(busy)` also disables them for the control's own reasons;
 * `needsNetwork(busy, call)` names the write the control makes, and one the offline outbox can
 * keep (`useCanWait`) stays enabled offline.
 */
export function useNeedsNetwork(): (disabled?: boolean, call?: EndpointPath) => NetworkActionProps {
  const offline = useOffline();
  const controlled = useWorkerInControl();
  return (disabled = false, call) =>
    offline && !canWait(call, controlled)
      ? { disabled: true, title: OFFLINE_REASON, 'aria-describedby': OFFLINE_REASON_ID }
      : { disabled };
}

/** While offline, why a menu action that needs the network does nothing (`ActionMenu`). */
export function useOfflineNote(): OfflineNote | null {
  return useOffline() ? OFFLINE_NOTE : null;
}
const OFFLINE_NOTE: OfflineNote = { title: OFFLINE_REASON, describedBy: OFFLINE_REASON_ID };
