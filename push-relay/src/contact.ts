/**
 * Who push services can reach about this Orbit (the VAPID subject) when VAPID_SUBJECT is not set.
 * Shared by the relay's settings and `npm start` (scripts/processes.mjs), which decides whether to
 * run the relay at all; so it imports nothing.
 */

/** The contact for an Orbit served from this machine only. */
const LOCAL_SUBJECT = 'mailto:admin@localhost';

export const LOOPBACK_HOST = /^(localhost|.*\.localhost|127(\.\d+){3}|\[?::1\]?|0\.0\.0\.0)$/i;

export type SubjectFallback =
  /** The subject to use, and where it came from (for the log). */
  | { subject: string; from: 'PUBLIC_URL' | 'localhost' }
  /** Push is off: why, and what to set. */
  | { off: string }
  /** PUBLIC_URL is not a URL at all. */
  | { invalid: string };

/**
 * Without VAPID_SUBJECT: PUBLIC_URL when it is an https: address with a real domain; the local
 * mailto when members reach Orbit on this machine (no PUBLIC_URL, or a loopback one). Otherwise
 * push is off in production: push services refuse a contact they cannot use, and browsers offer
 * push only to https: pages and localhost. Outside production the local mailto always does.
 */
export function vapidSubjectFallback(
  publicUrl: string | undefined,
  production: boolean,
): SubjectFallback {
  if (!publicUrl) return { subject: LOCAL_SUBJECT, from: 'localhost' };
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    return { invalid: `PUBLIC_URL must be an http: or https: URL, not "${publicUrl}"` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return { invalid: `PUBLIC_URL must be an http: or https: URL, not "${publicUrl}"` };
  if (LOOPBACK_HOST.test(url.hostname)) return { subject: LOCAL_SUBJECT, from: 'localhost' };
  if (url.protocol === 'https:' && url.hostname.includes('.'))
    return { subject: url.origin, from: 'PUBLIC_URL' };
  if (!production) return { subject: LOCAL_SUBJECT, from: 'localhost' };
  const why =
    url.protocol === 'http:'
      ? `PUBLIC_URL is ${url.origin}, not https: (browsers offer push only to https: pages and localhost, and push services need a contact)`
      : `PUBLIC_URL is ${url.origin}, which has no domain push services accept as a contact`;
  return {
    off: `${why}. Set VAPID_SUBJECT=mailto:you@example.com, or serve Orbit over https: and set PUBLIC_URL to that address.`,
  };
}
