/** Which requests the worker answers itself, and how. */
import { OFFLINE_PATHS } from '../src/contracts/endpoints.lists.ts';
import * as PATHS from '../src/contracts/endpoints.paths.ts';

/** Navigations to these paths go to the server as they are; every other one gets the app shell. */
export const NAVIGATION_DENYLIST = [/^\/(api|uploads|socket\.io)(\/|$)/];

/** Gallery thumbnails and profile pictures; display-size images stay with the network. */
const SAVED_MEDIA_PATHS = [/^\/uploads\/gallery\/[^/]+-thumb\.\w+$/, /^\/uploads\/avatars\/[^/]+$/];

/**
 * Of a gallery, only the first page of each folder is kept (docs/decisions.md "A paged gallery"):
 * the app asks for it at one address, without `cursor` or `limit`. Later pages go to the network
 * alone, so a long gallery browsed once does not push every other saved answer out of the cap.
 */
const isLaterGalleryPage = (url: URL) =>
  url.pathname === PATHS.galleryPage.path &&
  (url.searchParams.has('cursor') || url.searchParams.has('limit'));

/**
 * The API calls behind app start, the profile page and the notifications (docs/product.md
 * "Session and API calls"), marked `offline` in the endpoint table: the session, a member's
 * profile, the first page of their gallery and their folders, friend status, lists and counts,
 * requests and the notification list.
 */
export function isSavedApiCall(url: URL, origin: string): boolean {
  return (
    url.origin === origin &&
    OFFLINE_PATHS.some((path) => path.test(url.pathname)) &&
    !isLaterGalleryPage(url)
  );
}

export function isSavedMedia(url: URL, origin: string): boolean {
  return url.origin === origin && SAVED_MEDIA_PATHS.some((path) => path.test(url.pathname));
}
