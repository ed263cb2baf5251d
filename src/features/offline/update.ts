/**
 * The update flow: a new version's worker waits until the member chooses Reload, then takes over
 * and the page reloads once, so no page keeps running against assets its worker no longer has.
 */
import { create } from 'zustand';

/** Set just before a reload for a new version; a second reload so soon would be a loop. */
export const RELOAD_GUARD_KEY = 'orbit:update:reloaded-at';
export const RELOAD_GUARD_MS = 30_000;

interface UpdateState {
  /** A new version is installed and waiting (or, from another tab, already active). */
  available: boolean;
  /** Starts the new version: set by the registration when a worker is waiting. */
  activate: (() => void) | null;
  offer: (activate: () => void) => void;
  dismiss: () => void;
}

export const useUpdate = create<UpdateState>()((set) => ({
  available: false,
  activate: null,
  offer: (activate) => set({ available: true, activate }),
  dismiss: () => set({ available: false }),
}));

function readGuard(storage: Storage): number {
  try {
    return Number(storage.getItem(RELOAD_GUARD_KEY)) || 0;
  } catch {
    return 0;
  }
}

/**
 * Reloads the page unless it already reloaded for a new version moments ago; returns whether it
 * reloads. A page that cannot load its assets even after a reload shows its error instead.
 */
export function reloadOnce(
  location: Pick<Location, 'reload'> = window.location,
  storage: Storage = window.sessionStorage,
  now = Date.now(),
): boolean {
  if (now - readGuard(storage) < RELOAD_GUARD_MS) return false;
  try {
    storage.setItem(RELOAD_GUARD_KEY, String(now));
  } catch {
    // Without storage there is no guard; one reload is still better than a broken page.
  }
  location.reload();
  return true;
}

/** A lazy part of the app failed to load: its file belongs to a version the server no longer has. */
export function reloadOnChunkFailure(target: Window = window): () => void {
  const onPreloadError = () => {
    if (reloadOnce(target.location, target.sessionStorage)) return;
    console.warn('A part of the app failed to load again after reloading');
  };
  target.addEventListener('vite:preloadError', onPreloadError);
  return () => target.removeEventListener('vite:preloadError', onPreloadError);
}
