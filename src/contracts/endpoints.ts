/**
 * Every HTTP call of the API with its shapes (docs/architecture.md "Server plugins and HTTP
 * contracts"): the method and path of `endpoints.paths.ts`, the schemas of the path parameters,
 * query, body and answer from the contracts beside it, and the reader the app applies to the
 * answer (`readers/`). The server registers its routes from these entries (`route()` in
 * server/src/lib/route.ts) and the app calls through them (`api()` in src/lib/api.ts).
 *
 * Each area's entries are their own module under endpoints/, so a page bundles only the entries,
 * schemas and readers it uses; this file gathers them.
 */
export type { Endpoint } from './endpoints/entry.ts';
export * from './endpoints/account.ts';
export * from './endpoints/friends.ts';
export * from './endpoints/gallery.ts';
export * from './endpoints/notifications.ts';
export * from './endpoints/profile.ts';
export * from './endpoints/safety.ts';
export * from './endpoints/session.ts';
