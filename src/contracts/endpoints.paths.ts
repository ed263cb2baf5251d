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

const get = <P extends string>(path: P) => ({ method: 'GET', path }) as const;
const post = <P extends string>(path: P) => ({ method: 'POST', path }) as const;
const put = <P extends string>(path: P) => ({ method: 'PUT', path }) as const;
const patch = <P extends string>(path: P) => ({ method: 'PATCH', path }) as const;
const del = <P extends string>(path: P) => ({ method: 'DELETE', path }) as const;
const OFFLINE = { offline: true } as const;
const NEVER_KEPT = { neverKept: true } as const;

export const PATHS = {
  // Session and account, open to the signed out.
  signup: post('/api/auth/signup'),
  login: post('/api/auth/login'),
  logout: post('/api/auth/logout'),
  me: { ...get('/api/auth/me'), ...OFFLINE, ...NEVER_KEPT },
  tokenBridge: { ...get('/api/auth/token-bridge'), ...NEVER_KEPT },
  usernameAvailable: { ...get('/api/check-username'), aliasOf: 'checkUsername', ...NEVER_KEPT },
  forgotQuestion: post('/api/auth/forgot-password/question'),
  forgotReset: post('/api/auth/forgot-password/reset'),
  pushKey: { ...get('/api/push/vapid-public-key'), ...NEVER_KEPT },

  // The member's own account.
  checkUsername: get('/api/auth/check-username'),
  profileUpdate: patch('/api/auth/profile'),
  passwordChange: patch('/api/auth/password'),
  accountDelete: del('/api/auth/account'),
  accountExport: { ...get('/api/auth/export'), ...NEVER_KEPT },
  usersMe: { ...get('/api/users/me'), aliasOf: 'me' },
  themeSave: put('/api/users/theme'),
  themeSaveMe: { ...put('/api/users/me'), aliasOf: 'themeSave' },
  profile: { ...get('/api/users/profile/:username'), ...OFFLINE },

  // Friends and search.
  friendRequest: post('/api/users/friends/request'),
  friendCancel: post('/api/users/friends/cancel'),
  friendAccept: post('/api/users/friends/accept'),
  friendDecline: post('/api/users/friends/decline'),
  friendUnfriend: post('/api/users/friends/unfriend'),
  friendStatus: { ...get('/api/users/friends/status'), ...OFFLINE },
  friendCounts: { ...get('/api/users/friends/counts'), ...OFFLINE },
  friendsIncoming: { ...get('/api/users/friends/incoming'), ...OFFLINE },
  friendsOutgoing: { ...get('/api/users/friends/outgoing'), ...OFFLINE },
  friendsList: { ...get('/api/users/friends/list'), ...OFFLINE },
  search: get('/api/users/search'),

  // Blocking, reports and moderation.
  blockList: get('/api/users/blocks'),
  block: post('/api/users/blocks'),
  unblock: del('/api/users/blocks/:userId'),
  report: post('/api/reports'),
  moderationReports: get('/api/moderation/reports'),
  moderationDismiss: post('/api/moderation/reports/:id/dismiss'),
  moderationRemovePhoto: post('/api/moderation/reports/:id/remove-photo'),
  moderationSuspend: post('/api/moderation/reports/:id/suspend'),

  // Galleries.
  galleryPage: { ...get('/api/gallery'), ...OFFLINE },
  galleryFolders: { ...get('/api/gallery/folders'), ...OFFLINE },
  galleryUpload: post('/api/gallery'),
  galleryPatch: patch('/api/gallery/:ref'),
  galleryDelete: del('/api/gallery/:ref'),
  galleryReorder: post('/api/gallery/reorder'),

  // Notifications and push.
  notifications: { ...get('/api/notifications'), ...OFFLINE },
  notificationsRead: post('/api/notifications/read'),
  notificationDelete: del('/api/notifications/:id'),
  notificationsClear: del('/api/notifications'),
  pushSubscribe: post('/api/push/subscriptions'),
  pushUnsubscribe: del('/api/push/subscriptions'),
} as const satisfies Record<string, EndpointPath>;

export type EndpointName = keyof typeof PATHS;

const ALL: readonly EndpointPath[] = Object.values(PATHS);

/** A path pattern as a regular expression over a URL's pathname: each `:name` is one segment. */
export function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}

/** The GET calls whose last answer the service worker keeps for use offline. */
export const OFFLINE_PATHS: readonly RegExp[] = ALL.filter(
  (entry) => entry.offline && entry.method === 'GET',
).map((entry) => pathPattern(entry.path));

/** The path patterns whose answers are never kept. */
export const NEVER_KEPT_PATHS: ReadonlySet<string> = new Set(
  ALL.filter((entry) => entry.neverKept).map((entry) => entry.path),
);
