import { create } from 'zustand';

export const OFFLINE_BANNER = "You're offline — showing saved data";
/** Why an action that needs the network is disabled (its title and accessible description). */
export const OFFLINE_REASON = "You're offline. This needs a connection.";

interface NetworkState {
  /** `navigator.onLine`, and false after a request failed to reach the server. */
  online: boolean;
  markOffline: () => void;
  markOnline: () => void;
}

export const useNetwork = create<NetworkState>()((set) => ({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  markOffline: () => set({ online: false }),
  markOnline: () => set({ online: true }),
}));

/** For components: whether actions that need the network should be disabled. */
export function useOffline(): boolean {
  return useNetwork((state) => !state.online);
}
