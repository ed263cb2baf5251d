/** Which requests the worker answers itself, and how. */

/** Navigations to these paths go to the server as they are; every other one gets the app shell. */
export const NAVIGATION_DENYLIST = [/^\/(api|uploads|socket\.io)(\/|$)/];

/**
 * The API calls behind app start, the profile page and the notifications (docs/product.md "Session and API calls"): the session,
 * a member's profile, their gallery and folders, friend status, lists and counts, requests and the
 * notification list.
 */
const SAVED_API_PATHS = [
  /^\/api\/auth\/me$/,
  /^\/api\/users\/profile\/[^/]+$/,
  /^\/api\/gallery(\/folders)?$/,
  /^\/api\/users\/friends\/(status|list|counts|incoming|outgoing)$/,
  /^\/api\/notifications$/,
];

/** Gallery thumbnails and profile pictures; display-size images stay with the network. */
const SAVED_MEDIA_PATHS = [/^\/uploads\/gallery\/[^/]+-thumb\.\w+$/, /^\/uploads\/avatars\/[^/]+$/];

export function isSavedApiCall(url: URL, origin: string): boolean {
  return url.origin === origin && SAVED_API_PATHS.some((path) => path.test(url.pathname));
}

export function isSavedMedia(url: URL, origin: string): boolean {
  return url.origin === origin && SAVED_MEDIA_PATHS.some((path) => path.test(url.pathname));
}
