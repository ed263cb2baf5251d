/**
 * Sharing photos into Orbit from another app (docs/decisions.md "Sharing into Orbit"): the
 * manifest's share target, the worker that receives it and the page that opens on it agree here.
 */

/** Where the share sheet POSTs the photos (multipart/form-data). */
export const SHARE_PATH = '/share';
/** The form field the photos come in. */
export const SHARE_FIELD = 'photos';
/**
 * Where the worker sends the page afterwards: the member's own profile (the login first when
 * signed out), which opens the upload manager whenever shared photos wait for that member.
 */
export const SHARE_LANDING = '/profile';
