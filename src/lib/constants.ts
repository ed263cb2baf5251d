/**
 * The app's own names and timings of docs/product.md "Limits and timings": texts, UI pauses and
 * toasts, breakpoints and the names the tabs share. Limits the server or the service worker also
 * apply live in src/contracts/constants.ts.
 */

export const PRODUCT_NAME = 'Orbit';
export const TAGLINE = 'Where connection meets cosmos';

/** Pauses before a call. */
export const SEARCH_DEBOUNCE_MS = 120;
export const SETTINGS_USERNAME_DEBOUNCE_MS = 350;
export const COUNTS_REFRESH_DEBOUNCE_MS = 350;
export const NOTIFICATION_REFRESH_THROTTLE_MS = 1_200;
/** After another tab of this browser changed a friend status, unless the friend event came first. */
export const CROSS_TAB_REFETCH_MS = 300;

/** How long a friend status is trusted: as the server said it, or as this tab just changed it. */
export const FRIEND_STATUS_CACHE_MS = 30_000;
export const OPTIMISTIC_GUARD_MS = 2_500;

/** The connection to the server. */
export const REQUEST_TIMEOUT_MS = 8_000;
export const DELETE_RETRY_MS = 250;
export const SOCKET_RECONNECT_ATTEMPTS = 10;
export const SOCKET_BASE_DELAY_MS = 800;
export const SOCKET_CONNECT_TIMEOUT_MS = 10_000;

/** How long a message stays on screen. */
export const UPLOAD_STATUS_CLEAR_MS = 2_200;
export const LINK_COPIED_MS = 1_200;
export const SETTINGS_TOAST_MS = 3_000;
export const PROFILE_TOAST_MS = 1_800;
export const AVATAR_PRELOAD_REMOVE_MS = 5_000;

/** Counts shown in short. */
export const BELL_BADGE_CAP = 99;
export const UNREAD_DISPLAY_CAP = 50;

export const BREAKPOINTS = { wide: 1024, tablet: 900, medium: 768, small: 640, tiny: 420 } as const;

/** Cross-tab channel, window event and storage names (docs/decisions.md "Name and prefixes"). */
export const CHANNELS = {
  auth: 'orbit:auth',
  gallery: 'orbit:gallery',
  friends: 'orbit:friends',
  theme: 'orbit:theme',
} as const;
export const WINDOW_EVENTS = {
  friendsChanged: 'orbit:friends-changed',
  userUpdated: 'orbit:user-updated',
  logout: 'orbit:logout',
} as const;
export const STORAGE_KEYS = {
  token: 'token',
  altToken: 'authToken',
  avatarVersion: 'orbit:avatar:v',
  lastTheme: 'orbit:theme:last',
  themeFor: (userId: string) => `orbit:theme:${userId}`,
} as const;

/** The IndexedDB database the page and the service worker share (src/lib/idb.ts). */
export const DB_NAME = 'orbit';
