/**
 * Every HTTP call of the API, once: its method and path, and what is true of it whatever its
 * shapes (docs/architecture.md "Server plugins and HTTP contracts"). Without zod, so the service
 * worker and the landing page may read it; the shapes are added in `endpoints.ts`.
 *
 * - `aliasOf`: a second path the product's call table names for the same call (docs/product.md
 *   "Session and API calls"); the app calls the entry it names, the server answers both.
 * - `offline`: the service worker keeps the member's last answer for use offline
 *   (docs/decisions.md "Installable app, offline data").
 * - `neverKept`: its answer is sent with `Cache-Control: no-store` (docs/decisions.md "Caching").
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointPath {
  readonly method: Method;
  /** The path pattern, parameters as `:name`. */
  readonly path: string;
  readonly aliasOf?: string;
  readonly offline?: true;
  readonly neverKept?: true;
}

// Session and account, open to the signed out.
export const signup = { method: 'POST', path: '/api/auth/signup' } as const satisfies EndpointPath;
export const login = { method: 'POST', path: '/api/auth/login' } as const satisfies EndpointPath;
export const logout = { method: 'POST', path: '/api/auth/logout' } as const satisfies EndpointPath;
export const me = {
  method: 'GET',
  path: '/api/auth/me',
  offline: true,
  neverKept: true,
} as const satisfies EndpointPath;
export const tokenBridge = {
  method: 'GET',
  path: '/api/auth/token-bridge',
  neverKept: true,
} as const satisfies EndpointPath;
export const usernameAvailable = {
  method: 'GET',
  path: '/api/check-username',
  aliasOf: 'checkUsername',
  neverKept: true,
} as const satisfies EndpointPath;
export const forgotQuestion = {
  method: 'POST',
  path: '/api/auth/forgot-password/question',
} as const satisfies EndpointPath;
export const forgotReset = {
  method: 'POST',
  path: '/api/auth/forgot-password/reset',
} as const satisfies EndpointPath;
export const pushKey = {
  method: 'GET',
  path: '/api/push/vapid-public-key',
  neverKept: true,
} as const satisfies EndpointPath;

// The member's own account.
export const checkUsername = {
  method: 'GET',
  path: '/api/auth/check-username',
} as const satisfies EndpointPath;
export const profileUpdate = {
  method: 'PATCH',
  path: '/api/auth/profile',
} as const satisfies EndpointPath;
export const passwordChange = {
  method: 'PATCH',
  path: '/api/auth/password',
} as const satisfies EndpointPath;
export const accountDelete = {
  method: 'DELETE',
  path: '/api/auth/account',
} as const satisfies EndpointPath;
export const accountExport = {
  method: 'GET',
  path: '/api/auth/export',
  neverKept: true,
} as const satisfies EndpointPath;
export const usersMe = {
  method: 'GET',
  path: '/api/users/me',
  aliasOf: 'me',
} as const satisfies EndpointPath;
export const themeSave = {
  method: 'PUT',
  path: '/api/users/theme',
} as const satisfies EndpointPath;
export const themeSaveMe = {
  method: 'PUT',
  path: '/api/users/me',
  aliasOf: 'themeSave',
} as const satisfies EndpointPath;
export const profile = {
  method: 'GET',
  path: '/api/users/profile/:username',
  offline: true,
} as const satisfies EndpointPath;

// Friends and search.
export const friendRequest = {
  method: 'POST',
  path: '/api/users/friends/request',
} as const satisfies EndpointPath;
export const friendCancel = {
  method: 'POST',
  path: '/api/users/friends/cancel',
} as const satisfies EndpointPath;
export const friendAccept = {
  method: 'POST',
  path: '/api/users/friends/accept',
} as const satisfies EndpointPath;
export const friendDecline = {
  method: 'POST',
  path: '/api/users/friends/decline',
} as const satisfies EndpointPath;
export const friendUnfriend = {
  method: 'POST',
  path: '/api/users/friends/unfriend',
} as const satisfies EndpointPath;
export const friendStatus = {
  method: 'GET',
  path: '/api/users/friends/status',
  offline: true,
} as const satisfies EndpointPath;
export const friendCounts = {
  method: 'GET',
  path: '/api/users/friends/counts',
  offline: true,
} as const satisfies EndpointPath;
export const friendsIncoming = {
  method: 'GET',
  path: '/api/users/friends/incoming',
  offline: true,
} as const satisfies EndpointPath;
export const friendsOutgoing = {
  method: 'GET',
  path: '/api/users/friends/outgoing',
  offline: true,
} as const satisfies EndpointPath;
export const friendsList = {
  method: 'GET',
  path: '/api/users/friends/list',
  offline: true,
} as const satisfies EndpointPath;
export const search = { method: 'GET', path: '/api/users/search' } as const satisfies EndpointPath;

// Blocking, reports and moderation.
export const blockList = {
  method: 'GET',
  path: '/api/users/blocks',
} as const satisfies EndpointPath;
export const block = { method: 'POST', path: '/api/users/blocks' } as const satisfies EndpointPath;
export const unblock = {
  method: 'DELETE',
  path: '/api/users/blocks/:userId',
} as const satisfies EndpointPath;
export const report = { method: 'POST', path: '/api/reports' } as const satisfies EndpointPath;
export const moderationReports = {
  method: 'GET',
  path: '/api/moderation/reports',
} as const satisfies EndpointPath;
export const moderationDismiss = {
  method: 'POST',
  path: '/api/moderation/reports/:id/dismiss',
} as const satisfies EndpointPath;
export const moderationRemovePhoto = {
  method: 'POST',
  path: '/api/moderation/reports/:id/remove-photo',
} as const satisfies EndpointPath;
export const moderationSuspend = {
  method: 'POST',
  path: '/api/moderation/reports/:id/suspend',
} as const satisfies EndpointPath;

// Galleries.
export const galleryPage = {
  method: 'GET',
  path: '/api/gallery',
  offline: true,
} as const satisfies EndpointPath;
export const galleryFolders = {
  method: 'GET',
  path: '/api/gallery/folders',
  offline: true,
} as const satisfies EndpointPath;
export const galleryUpload = {
  method: 'POST',
  path: '/api/gallery',
} as const satisfies EndpointPath;
export const galleryPatch = {
  method: 'PATCH',
  path: '/api/gallery/:ref',
} as const satisfies EndpointPath;
export const galleryDelete = {
  method: 'DELETE',
  path: '/api/gallery/:ref',
} as const satisfies EndpointPath;
export const galleryReorder = {
  method: 'POST',
  path: '/api/gallery/reorder',
} as const satisfies EndpointPath;

// Notifications and push.
export const notifications = {
  method: 'GET',
  path: '/api/notifications',
  offline: true,
} as const satisfies EndpointPath;
export const notificationsRead = {
  method: 'POST',
  path: '/api/notifications/read',
} as const satisfies EndpointPath;
export const notificationDelete = {
  method: 'DELETE',
  path: '/api/notifications/:id',
} as const satisfies EndpointPath;
export const notificationsClear = {
  method: 'DELETE',
  path: '/api/notifications',
} as const satisfies EndpointPath;
export const pushSubscribe = {
  method: 'POST',
  path: '/api/push/subscriptions',
} as const satisfies EndpointPath;
export const pushUnsubscribe = {
  method: 'DELETE',
  path: '/api/push/subscriptions',
} as const satisfies EndpointPath;
