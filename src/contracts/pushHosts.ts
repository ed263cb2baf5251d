/**
 * Which push endpoints Orbit sends to (docs/decisions.md "Push through a relay"): https: on port
 * 443 at the push services browsers use, plus the hosts an operator adds with PUSH_ALLOWED_HOSTS.
 * The server checks it when a device subscribes, push-relay again before every push.
 */
import { z } from './zod.ts';
import { parsedWith } from './settings.ts';

/** The browsers' push services: Chrome and Edge (FCM), Firefox (Mozilla), Safari (Apple), Windows. */
const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
] as const;

/** Letters, digits and hyphens in dot-separated labels, lower case: a host name as DNS writes it. */
const DNS_LABELS = String.raw`[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*`;
const DNS_NAME = new RegExp(`^${DNS_LABELS}$`);
/** A host name (`push.example.org`) or every host under a suffix (`*.push.example.org`). */
const HOST_PATTERN = new RegExp(String.raw`^(\*\.)?${DNS_LABELS}$`);

export interface PushEndpointPolicy {
  /** Hosts besides {@link PUSH_SERVICE_HOSTS}, exact or `*.suffix` (a self-hosted push service). */
  extraHosts: readonly string[];
  /**
   * Endpoints on this machine (https: on any port of localhost, 127.0.0.0/8 or [::1]) are let
   * through: the local push service of the tests. Never in production.
   */
  allowLocal: boolean;
}

export const DEFAULT_PUSH_ENDPOINT_POLICY: PushEndpointPolicy = {
  extraHosts: [],
  allowLocal: false,
};

/**
 * PUSH_ALLOWED_HOSTS as a list: comma-separated, blanks ignored, lower-cased. Throws naming the
 * first entry that is neither a host name nor `*.` and one.
 */
function parsePushHosts(text: string | undefined): string[] {
  const hosts = (text ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
  const wrong = hosts.find((host) => !HOST_PATTERN.test(host));
  if (wrong !== undefined)
    throw new Error(
      `PUSH_ALLOWED_HOSTS: "${wrong}" is not a host name or *.suffix (comma-separated, no scheme or port)`,
    );
  return hosts;
}

/** Whether `host` (lower case) is `pattern` or, for `*.suffix`, a host under that suffix. */
function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.'))
    return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** A host name of this machine: `localhost`, 127.0.0.0/8 or [::1] as a URL writes them. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * A path and query as browsers' push services write them: RFC 3986 path and query characters and
 * `%` escapes, without the apostrophe and the characters every URL parser escapes its own way.
 */
const PATH_AND_QUERY = /^\/[A-Za-z0-9\-._~!$&()*+,;=:@%/?]*$/;

/**
 * The authority of an endpoint as a parser that follows RFC 3986 rather than the WHATWG URL
 * Standard reads it: from `//` to the first `/`, `?` or `#`. A backslash ends it for the one and
 * not the other.
 */
function rawAuthority(endpoint: string): string {
  const start = endpoint.indexOf('//');
  if (start === -1) return '';
  const rest = endpoint.slice(start + 2);
  const end = rest.search(/[/?#]/);
  return end === -1 ? rest : rest.slice(0, end);
}

/**
 * Why Orbit does not send pushes to this endpoint, or undefined when it does:
 * - `form`: it is not written as browsers write endpoints: it is not its own normalised
 *   `new URL(endpoint).href` (upper case, `:443` written out, a tab, an IDN in Unicode, `%2e` in
 *   the host…), its authority holds `%` or a backslash, or its path holds a fragment or characters
 *   parsers escape differently. Two URL parsers may read such a text as two hosts: the check one
 *   and the sending one (docs/decisions.md "Push through a relay").
 * - `service`: not https:, a user name or password, or not a listed host (a plain DNS name) on port
 *   443, nor (with `allowLocal`) any port on this machine.
 */
export function pushEndpointProblem(
  endpoint: string,
  policy: PushEndpointPolicy,
): 'form' | 'service' | undefined {
  if (!URL.canParse(endpoint)) return 'form';
  const url = new URL(endpoint);
  if (
    url.href !== endpoint ||
    /[%\\]/.test(rawAuthority(endpoint)) ||
    endpoint.includes('#') ||
    !PATH_AND_QUERY.test(url.pathname + url.search)
  )
    return 'form';
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return 'service';
  const host = url.hostname;
  if (policy.allowLocal && isLoopbackHost(host)) return undefined;
  // The URL parser leaves the port empty when it is https:'s own, 443.
  if (url.port !== '' || !DNS_NAME.test(host)) return 'service';
  return [...PUSH_SERVICE_HOSTS, ...policy.extraHosts].some((pattern) => hostMatches(host, pattern))
    ? undefined
    : 'service';
}

/** Whether Orbit may send pushes to this endpoint: see {@link pushEndpointProblem}. */
export function isAllowedPushEndpoint(endpoint: string, policy: PushEndpointPolicy): boolean {
  return pushEndpointProblem(endpoint, policy) === undefined;
}

/**
 * The two settings, read alike by the server and push-relay (docs/configuration.md
 * "Server settings", "Push relay settings").
 */
export const PushEndpointSettings = {
  PUSH_ALLOWED_HOSTS: z.pipe(z._default(z.string(), ''), z.transform(parsedWith(parsePushHosts))),
  // Tests only: true, 1 or yes let loopback endpoints through.
  PUSH_ALLOW_LOCAL_SERVICE: z.pipe(
    z._default(z.enum(['true', 'false', '1', '0', 'yes', 'no']), 'false'),
    z.transform((value) => value === 'true' || value === '1' || value === 'yes'),
  ),
};
