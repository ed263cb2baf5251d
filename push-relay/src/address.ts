/**
 * Where a push may go (docs/decisions.md "Push through a relay"): the endpoint's host must be one
 * of the push services (src/contracts/pushHosts.ts), and every address its name resolves to must be
 * a public one. The check happens in the connection's own DNS lookup, so the socket connects to
 * the very address that was checked: a name that resolves differently a moment later (DNS
 * rebinding) cannot send it elsewhere.
 */
import dns from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import url from 'node:url';
import ipaddr from 'ipaddr.js';
import { type PushEndpointPolicy, pushEndpointProblem } from '../../src/contracts/pushHosts.ts';

/** Every address of a host name, as `dns.lookup(name, { all: true })` answers. */
export type Resolver = (hostname: string) => Promise<dns.LookupAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

/**
 * Why a push may not go to this address (its range: `loopback`, `private`, `linkLocal`,
 * `carrierGradeNat`, `uniqueLocal`, `unspecified`, `multicast`…), or undefined for a public one.
 * IPv4-mapped IPv6 addresses count as the IPv4 address they carry. With `allowLocal` (the tests'
 * local push service) loopback is let through.
 */
export function refusedRange(address: string, allowLocal: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an address';
  const range = ipaddr.process(address).range();
  if (range === 'unicast' || (allowLocal && range === 'loopback')) return undefined;
  return range;
}

/** A push endpoint Orbit does not send to; the relay drops it and has the server forget it. */
export class RefusedEndpointError extends Error {
  override name = 'RefusedEndpointError';
}

/** A URL's host name, an IPv6 address without its brackets. */
const bareHostname = (address: URL) => address.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Whether web-push would send to another place than the one checked. web-push reads an endpoint
 * with Node's legacy `url.parse()`, the checks read it with `new URL()`, and the two disagree on
 * some texts: `https://evil.example%2ex.push.apple.com/x` is a host under push.apple.com to the
 * one and `evil.example` to the other. The server keeps only endpoints both read alike
 * (src/contracts/pushHosts.ts); this catches any row stored before it did.
 */
export function parsersDisagree(endpoint: string): boolean {
  if (!URL.canParse(endpoint)) return true;
  const checked = new URL(endpoint);
  // The very parser web-push sends with (Node 24 warns once about calling it: DEP0169).
  const sent = url.parse(endpoint);
  return (
    sent.protocol !== checked.protocol ||
    sent.hostname !== bareHostname(checked) ||
    (sent.port || '443') !== (checked.port || '443') ||
    sent.path !== checked.pathname + checked.search
  );
}

export const REFUSALS = {
  parsers: 'the endpoint reads as another address to the sender than to the check',
  form: 'the endpoint is not written as browsers write it',
  service: 'not a push service Orbit sends to',
} as const;

/**
 * Why this endpoint may not be pushed to before any lookup: the sender would read it otherwise
 * than the checks, it is not written as browsers write endpoints, it is not a push service the
 * policy accepts, or an address written in the URL is not a public one (a literal address is
 * never looked up). Undefined when it may, as far as its name goes.
 */
export function endpointRefusal(endpoint: string, policy: PushEndpointPolicy): string | undefined {
  if (parsersDisagree(endpoint)) return REFUSALS.parsers;
  const problem = pushEndpointProblem(endpoint, policy);
  if (problem) return REFUSALS[problem];
  const host = bareHostname(new URL(endpoint));
  if (net.isIP(host) === 0) return undefined;
  const range = refusedRange(host, policy.allowLocal);
  return range && `the endpoint is a ${range} address`;
}

/**
 * A `lookup` for sockets to push services: resolves every address of the name and fails with a
 * {@link RefusedEndpointError} when any of them is not a public one; otherwise answers them as
 * `dns.lookup` would, so the socket connects to an address checked here.
 */
export function guardedLookup(resolve: Resolver, allowLocal: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        for (const { address } of addresses) {
          const range = refusedRange(address, allowLocal);
          if (range) {
            callback(
              new RefusedEndpointError(`the push service resolves to a ${range} address`),
              '',
            );
            return;
          }
        }
        const family =
          options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? addresses.filter((entry) => entry.family === family) : addresses;
        const first = usable[0];
        if (!first) {
          const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          error.code = 'ENOTFOUND';
          callback(error, '');
        } else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

export interface PushAgentOptions {
  concurrency: number;
  endpoints: PushEndpointPolicy;
  resolve?: Resolver | undefined;
  /** A certificate authority to trust besides the usual ones (the tests' push service). */
  trustedCa?: string | Buffer | undefined;
}

/** The keep-alive agent every push goes through, its lookups checked by {@link guardedLookup}. */
export function pushAgent(options: PushAgentOptions): https.Agent {
  return new https.Agent({
    keepAlive: true,
    maxSockets: options.concurrency,
    lookup: guardedLookup(options.resolve ?? systemResolver, options.endpoints.allowLocal),
    ...(options.trustedCa ? { ca: [...tls.rootCertificates, options.trustedCa.toString()] } : {}),
  });
}
