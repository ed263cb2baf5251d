/**
 * Every HTTP call of the API, once: its method and path, and what is true of it whatever its
 * shapes (docs/architecture.md "Server plugins and HTTP contracts"). Without zod, so the service
 * worker and the landing page may read it; the shapes are added in `endpoints.ts`.
 *
 * Each area's paths are their own module under paths/, imported from there by the app, so a page
 * bundles only the paths of the calls it may make; this file gathers them (docs/architecture.md
 * "Code splitting and first paint").
 *
 * - `aliasOf`: a second path the product's call table names for the same call (docs/product.md
 *   "Session and API calls"); the app calls the entry it names, the server answers both.
 * - `offline`: the service worker keeps the member's last answer for use offline
 *   (docs/decisions.md "Installable app, offline data").
 * - `neverKept`: its answer is sent with `Cache-Control: no-store` (docs/decisions.md "Caching").
 * - `outbox`: a write the installed app may take offline and send when back, with an
 *   `Idempotency-Key` the server honours (docs/decisions.md "The offline outbox").
 */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointPath {
  readonly method: Method;
  /** The path pattern, parameters as `:name`. */
  readonly path: string;
  readonly aliasOf?: string;
  readonly offline?: true;
  readonly neverKept?: true;
  readonly outbox?: true;
}

export * from './paths/session.ts';
export * from './paths/profile.ts';
export * from './paths/account.ts';
export * from './paths/friends.ts';
export * from './paths/safety.ts';
export * from './paths/gallery.ts';
export * from './paths/notifications.ts';
