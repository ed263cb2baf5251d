/**
 * Which push endpoints Orbit sends to (docs/decisions.md "Push through a relay"): https: on port
 * 443 at the push services browsers use, plus the hosts an operator adds with PUSH_ALLOWED_HOSTS.
 * The server checks it when a device subscribes, push-relay again before every push.
 */
import { z } from './zod.ts';

/** The browsers' push services: Chrome and Edge (FCM), Firefox (Mozilla), Safari (Apple), Windows. */
export const PUSH_SERVICE_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
] as const;

/** A host name (`push.example.org`) or every host under a suffix (`*.push.example.org`). */
const HOST_PATTERN =
  /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

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
export function parsePushHosts(text: string | undefined): string[] {
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
export function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.'))
    return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
  return host === pattern;
}

/** A host name of this machine: `localhost`, 127.0.0.0/8 or [::1] as a URL writes them. */
export function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  );
}

/**
 * Whether Orbit may send pushes to this endpoint: https:, no user name or password, and either a
 * listed host on port 443, or (with `allowLocal`) any port on this machine.
 */
export function isAllowedPushEndpoint(endpoint: string, policy: PushEndpointPolicy): boolean {
  if (!URL.canParse(endpoint)) return false;
  const url = new URL(endpoint);
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return false;
  const host = url.hostname.toLowerCase();
  if (policy.allowLocal && isLoopbackHost(host)) return true;
  // The URL parser leaves the port empty when it is https:'s own, 443.
  if (url.port !== '') return false;
  return [...PUSH_SERVICE_HOSTS, ...policy.extraHosts].some((pattern) =>
    hostMatches(host, pattern),
  );
}

/** The two settings, read alike by the server and push-relay (README.md "Configuration"). */
export const PushEndpointSettings = {
  PUSH_ALLOWED_HOSTS: z
    .string()
    .default('')
    .transform((value, context) => {
      try {
        return parsePushHosts(value);
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
  // Tests only: true, 1 or yes let loopback endpoints through.
  PUSH_ALLOW_LOCAL_SERVICE: z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .default('false')
    .transform((value) => value === 'true' || value === '1' || value === 'yes'),
};
