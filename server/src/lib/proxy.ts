import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which reverse proxies in front of Orbit are believed about the client: none, the nearest `n`
 * hops, or the proxies at these addresses/CIDRs. "Every hop" is never an option: the left-most
 * X-Forwarded-For entry is written by the client, so trusting it lets anyone pick a fresh address
 * (and a fresh rate-limit budget) per request.
 */
export type ProxyTrustSetting = false | number | readonly string[];

/** Whether the address `hop` steps away from this server (0 = the direct peer) is a trusted proxy. */
export type ProxyTrust = (address: string, hop: number) => boolean;

export const TRUST_EVERY_HOP_REFUSED =
  'TRUST_PROXY=true would trust every hop, so any client could choose its own address and escape the rate limits. ' +
  'Set the number of proxies in front of Orbit (TRUST_PROXY=1 behind the nginx site in deploy/) ' +
  'or their addresses (TRUST_PROXY=127.0.0.1,10.0.0.0/8); leave it false when clients connect directly.';

/** Reads TRUST_PROXY: `false`/`0`, a hop count, or a comma-separated list of addresses/CIDRs. */
export function parseProxyTrust(value: string): ProxyTrustSetting {
  const text = value.trim();
  if (text === '' || text === 'false' || text === '0') return false;
  if (text === 'true') throw new Error(TRUST_EVERY_HOP_REFUSED);
  if (/^\d+$/.test(text)) return Number(text);
  const list = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(list);
  } catch (error) {
    throw new Error(
      `TRUST_PROXY must be false, a hop count or a list of addresses/CIDRs: ${(error as Error).message}`,
      { cause: error },
    );
  }
  return list;
}

/**
 * The trust function Fastify and the socket handshake share. A hop count trusts the nearest `n`
 * addresses, so the client address is the one the outermost trusted proxy saw; it relies on the
 * node being reachable only through that proxy (docs/deploy.md "Step by step").
 */
export function proxyTrust(setting: ProxyTrustSetting): ProxyTrust | false {
  if (setting === false || setting === 0) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile([...setting]);
}

/** The last value of a header a proxy may have appended to (`a, b` or repeated headers). */
function lastEntry(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return undefined;
  const last = value.slice(value.lastIndexOf(',') + 1).trim();
  return last || undefined;
}

/**
 * The origin the browser used to reach Orbit, as its Origin header would name it: the socket's
 * own scheme and Host, or, behind a trusted proxy, X-Forwarded-Proto and X-Forwarded-Host.
 */
export function pageOrigin(raw: IncomingMessage, trust: ProxyTrust | false): string {
  const peer = raw.socket.remoteAddress;
  const proxied = trust !== false && peer !== undefined && trust(peer, 0);
  const encrypted = (raw.socket as { encrypted?: boolean }).encrypted === true;
  const protocol =
    (proxied && lastEntry(raw.headers['x-forwarded-proto'])) || (encrypted ? 'https' : 'http');
  const host = (proxied && lastEntry(raw.headers['x-forwarded-host'])) || raw.headers.host || '';
  return `${protocol}://${host}`;
}
