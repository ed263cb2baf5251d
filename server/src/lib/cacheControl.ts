/**
 * Every answer says how it may be kept (docs/decisions.md "Caching"). One value per class:
 * - `immutable`: hashed build files and pictures under /uploads, whose names change with content;
 * - `revalidate`: the app shell (index.html), sw.js, the manifest, icons and other unhashed files:
 *   kept, but checked (ETag / Last-Modified) before each use, so a deploy is seen at once; never
 *   `no-store`, which would keep the page out of the back/forward cache;
 * - `member`: API answers for whoever asks (a member's data): the browser alone may keep them,
 *   checked by ETag before each use;
 * - `never`: what must not be kept at all: who is signed in (the session check, small, and asked
 *   for with `cache: 'no-store'` anyway), the session token the bridge hands out, the push key
 *   (a relay that comes back may bring another), health and metrics, every error, and every
 *   answer to a call that is not a GET.
 */
export const CACHE_CONTROL = {
  immutable: 'public, max-age=31536000, immutable',
  revalidate: 'no-cache',
  member: 'private, no-cache',
  never: 'no-store',
} as const;
