/**
 * Where the relay may push (docs/decisions.md "Push through a relay"): the push services' hosts,
 * and only public addresses behind them, checked in the very lookup the socket connects with; and
 * how long an endpoint that keeps failing rests.
 */
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import url from 'node:url';
import fc from 'fast-check';
import pLimit from 'p-limit';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_PUSH_ENDPOINT_POLICY,
  isAllowedPushEndpoint,
} from '../../src/contracts/pushHosts.ts';
import {
  AS_BROWSERS_WRITE,
  NOT_AS_BROWSERS_WRITE,
  NOT_A_PUSH_SERVICE,
} from '../../server/test/push-endpoints.ts';
import {
  REFUSALS,
  RefusedEndpointError,
  type Resolver,
  endpointRefusal,
  guardedLookup,
  parsersDisagree,
  pushAgent,
  refusedRange,
  systemResolver,
} from '../src/address.ts';
import { EndpointBackoff } from '../src/backoff.ts';
import { loadRelaySettings } from '../src/config.ts';
import { type PushSender, VapidAuthorization, deliver } from '../src/deliver.ts';
import { writeSelfSignedCertificate } from './certificate.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import { pushPayload } from './payloads.ts';

describe('the addresses a push may go to', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'linkLocal'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
  ])('refuses %s (%s)', (address, range) => {
    expect(refusedRange(address, false)).toBe(range);
  });

  it.each(['142.250.185.74', '17.57.146.20', '2a00:1450:4001:80b::200a', '::ffff:8.8.8.8'])(
    'takes the public address %s',
    (address) => expect(refusedRange(address, false)).toBeUndefined(),
  );

  it('lets loopback through only for the local push service, and nothing else private', () => {
    expect(refusedRange('127.0.0.1', true)).toBeUndefined();
    expect(refusedRange('::1', true)).toBeUndefined();
    expect(refusedRange('10.0.0.1', true)).toBe('private');
    expect(refusedRange('169.254.169.254', true)).toBe('linkLocal');
  });
});

describe('an endpoint before any lookup', () => {
  const local = { extraHosts: [], allowLocal: true };

  it('is refused when it is no push service, as the server refuses it', () => {
    for (const endpoint of [
      'https://127.0.0.1:5399/x',
      'https://10.0.0.1/x',
      'https://attacker.example/x',
      'https://fcm.googleapis.com:8443/x',
      'http://fcm.googleapis.com/x',
    ]) {
      expect(isAllowedPushEndpoint(endpoint, DEFAULT_PUSH_ENDPOINT_POLICY)).toBe(false);
      expect(endpointRefusal(endpoint, DEFAULT_PUSH_ENDPOINT_POLICY)).toBe(
        'not a push service Orbit sends to',
      );
    }
    expect(
      endpointRefusal('https://fcm.googleapis.com/fcm/send/x', DEFAULT_PUSH_ENDPOINT_POLICY),
    ).toBeUndefined();
  });

  it('is refused when an operator allowed a private address literally', () => {
    const policy = { extraHosts: ['10.0.0.1'], allowLocal: false };
    expect(endpointRefusal('https://10.0.0.1/x', policy)).toBe('the endpoint is a private address');
  });

  it('is taken on this machine only with the local push service', () => {
    expect(endpointRefusal('https://127.0.0.1:5399/x', local)).toBeUndefined();
    expect(endpointRefusal('https://[::1]:5399/x', local)).toBeUndefined();
    expect(endpointRefusal('https://10.0.0.1/x', local)).toBe('not a push service Orbit sends to');
  });
});

describe('an endpoint the sender would read otherwise than the checks', () => {
  const policy = DEFAULT_PUSH_ENDPOINT_POLICY;
  const bypasses = [...NOT_AS_BROWSERS_WRITE, ...NOT_A_PUSH_SERVICE].filter(([name]) =>
    name.startsWith('†'),
  );

  it.each(bypasses)('is refused before any lookup: %s', (_, endpoint) => {
    // What web-push would connect to.
    expect(url.parse(endpoint).hostname).toBe('evil.example');
    expect(parsersDisagree(endpoint)).toBe(true);
    expect(endpointRefusal(endpoint, policy)).toBe(REFUSALS.parsers);
  });

  it.each(NOT_AS_BROWSERS_WRITE)(
    'is refused when not written as browsers write it: %s',
    (_, endpoint) => {
      expect(endpointRefusal(endpoint, policy)).toMatch(
        new RegExp(`^(${REFUSALS.parsers}|${REFUSALS.form})$`),
      );
    },
  );

  it.each(NOT_A_PUSH_SERVICE)('is refused at no push service: %s', (_, endpoint) => {
    expect(endpointRefusal(endpoint, policy)).toMatch(
      new RegExp(`^(${REFUSALS.parsers}|${REFUSALS.service})$`),
    );
  });

  it.each(AS_BROWSERS_WRITE)('is taken as browsers write it: %s', (_, endpoint) => {
    expect(parsersDisagree(endpoint)).toBe(false);
    expect(endpointRefusal(endpoint, policy)).toBeUndefined();
  });

  it('is never let through: whatever the allow-list takes, both parsers read alike', () => {
    // An allowed host with a character a parser may read its own way spliced in.
    const tricky = fc.constantFrom(
      ...['%2e', '%2E', '%252e', '%e3%80%82', '%ef%bc%8e', '。', '．', '\\', '\t', '\n', ' '],
      ...[';', '{', '}', '|', '^', '`', "'", '"', '<', '>', '@', '%40', ':', ':443', '#', '?', '/'],
      ...['%5c', '%2f', '%3a', '%00', '\u0000', '\u00ad', '\u200b', 'A', 'Z', '.', '..', '-'],
    );
    const host = fc.constantFrom(
      'fcm.googleapis.com',
      'updates.push.services.mozilla.com',
      'web.push.apple.com',
      'wns2-par02p.notify.windows.com',
    );
    // Mostly the first, as browsers write it, so that some texts pass the allow-list.
    const mostly = (usual: string, ...others: string[]) =>
      fc.oneof({ arbitrary: fc.constant(usual), weight: 3 }, fc.constantFrom(...others));
    const endpoint = fc
      .tuple(
        mostly('https://', 'HTTPS://', 'https:/', 'https:\\\\', 'https:'),
        mostly('', 'evil.example', 'user@', 'evil.example@'),
        fc.array(fc.oneof(tricky, fc.constantFrom('x', '-')), { maxLength: 3 }),
        host,
        mostly('', ':443', ':8443'),
        mostly('/x', '/x#y', '\\x', '?x', '/a/../x', '/%2e%2e/x', "/a'b", ''),
      )
      .chain(([scheme, before, splices, allowed, port, path]) =>
        fc.integer({ min: 0, max: allowed.length }).map((at) => {
          const spliced = allowed.slice(0, at) + splices.join('') + allowed.slice(at);
          return `${scheme}${before}${spliced}${port}${path}`;
        }),
      );
    let taken = 0;
    fc.assert(
      fc.property(endpoint, (text) => {
        if (isAllowedPushEndpoint(text, policy)) {
          taken += 1;
          const sent = url.parse(text);
          const checked = new URL(text);
          expect(sent.hostname).toBe(checked.hostname);
          expect(sent.path).toBe(checked.pathname + checked.search);
          expect(sent.port).toBeNull();
        }
      }),
      { numRuns: 5_000 },
    );
    // Some texts pass, so the property says something (a hyphen or a dot spliced in a label).
    expect(taken).toBeGreaterThan(20);
  });
});

/** Calls a lookup as a socket does, with `all` as net's family autoselection asks. */
function lookUp(resolve: Resolver, allowLocal: boolean, hostname: string, all = true) {
  return new Promise<unknown>((done, fail) => {
    guardedLookup(resolve, allowLocal)(hostname, { all }, (error, address, family) => {
      if (error) fail(error);
      else done(all ? address : { address, family });
    });
  });
}

describe('the lookup of a push service', () => {
  const answers =
    (table: Record<string, string[]>): Resolver =>
    (hostname) =>
      Promise.resolve(
        (table[hostname] ?? []).map((address) => ({
          address,
          family: address.includes(':') ? 6 : 4,
        })),
      );

  it('answers public addresses as dns.lookup does', async () => {
    const resolve = answers({ 'fcm.googleapis.com': ['142.250.185.74', '2a00:1450:4001::200a'] });
    expect(await lookUp(resolve, false, 'fcm.googleapis.com')).toEqual([
      { address: '142.250.185.74', family: 4 },
      { address: '2a00:1450:4001::200a', family: 6 },
    ]);
    expect(await lookUp(resolve, false, 'fcm.googleapis.com', false)).toEqual({
      address: '142.250.185.74',
      family: 4,
    });
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const resolve = answers({
      'rebound.example': ['169.254.169.254'],
      'mixed.example': ['142.250.185.74', '10.0.0.5'],
      'mapped.example': ['::ffff:192.168.0.1'],
    });
    await expect(lookUp(resolve, false, 'rebound.example')).rejects.toThrow(
      new RefusedEndpointError('the push service resolves to a linkLocal address'),
    );
    await expect(lookUp(resolve, false, 'mixed.example')).rejects.toThrow(/private address/);
    await expect(lookUp(resolve, false, 'mapped.example')).rejects.toThrow(/private address/);
  });

  it('refuses localhost as the system resolves it, unless the local push service is on', async () => {
    await expect(lookUp(systemResolver, false, 'localhost')).rejects.toThrow(
      /resolves to a loopback address/,
    );
    expect(await lookUp(systemResolver, true, 'localhost')).toContainEqual(
      expect.objectContaining({ family: expect.any(Number) as number }),
    );
  });
});

describe('a push through the guarded agent', () => {
  let service: FakePushService;
  const payload = pushPayload();
  const signal = new AbortController().signal;
  const vapid = new VapidAuthorization({
    ...webpush.generateVAPIDKeys(),
    subject: 'mailto:ops@orbit.example',
  });
  const senderWith = (agent: https.Agent): PushSender => ({
    vapid,
    ttlSeconds: 60,
    agent,
    limiter: pLimit(4),
    retry: { maxAttempts: 3, baseMs: 20, budgetMs: 5_000 },
    timeoutMs: 5_000,
  });

  beforeAll(async () => {
    service = await startFakePushService();
  });
  afterAll(() => service.close());

  it('is dropped as refused, without a request, when the name resolves to a private address', async () => {
    const device = service.subscribe();
    const port = new URL(service.origin).port;
    // A name that the push service's check let through, resolving to this machine at send time.
    const agent = pushAgent({
      concurrency: 4,
      endpoints: { extraHosts: ['push.rebind.test'], allowLocal: false },
      resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
      trustedCa: service.certificate,
    });
    try {
      const outcome = await deliver(
        senderWith(agent),
        { ...device, endpoint: `https://push.rebind.test:${port}/push/${device.id}` },
        payload,
        signal,
      );
      expect(outcome).toEqual({
        result: 'dropped',
        status: undefined,
        reason: 'the push service resolves to a loopback address',
        attempts: 1,
        refused: true,
      });
      expect(service.attemptsFor(device.id)).toBe(0);
    } finally {
      agent.destroy();
    }
  });

  it('connects to the address its lookup checked, not to another answer of the name', async () => {
    // A push service named push.pinned.test, on this machine; the system's DNS knows no such name,
    // so a second lookup behind the check's back would fail instead of reaching it.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-pinned-'));
    const files = writeSelfSignedCertificate(dir, 'push.pinned.test', 'DNS:push.pinned.test');
    const cert = fs.readFileSync(files.cert, 'utf8');
    const server = https.createServer({ key: fs.readFileSync(files.key), cert }, (_, response) =>
      response.writeHead(201).end(),
    );
    fs.rmSync(dir, { recursive: true, force: true });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const looked: string[] = [];
    const agent = pushAgent({
      concurrency: 4,
      endpoints: { extraHosts: [], allowLocal: true },
      resolve: (hostname) => {
        looked.push(hostname);
        return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
      },
      trustedCa: cert,
    });
    try {
      const device = service.subscribe();
      const outcome = await deliver(
        senderWith(agent),
        { ...device, endpoint: `https://push.pinned.test:${port}/push/1` },
        payload,
        signal,
      );
      expect(outcome).toMatchObject({ result: 'sent', status: 201 });
      expect(looked).toEqual(['push.pinned.test']);
    } finally {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('the backoff of a failing endpoint', () => {
  const clock = () => {
    let now = 0;
    return { now: () => now, advance: (ms: number) => (now += ms) };
  };

  it('rests an endpoint 1 s after a failed delivery, doubling up to 10 min', () => {
    const time = clock();
    const backoff = new EndpointBackoff(undefined, time.now);
    expect(backoff.waitFor('a')).toBe(0);
    const waits = Array.from({ length: 12 }, () => backoff.failed('a'));
    expect(waits).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000, 512_000, 600_000,
      600_000,
    ]);
    expect(backoff.waitFor('a')).toBe(600_000);
    time.advance(599_999);
    expect(backoff.waitFor('a')).toBe(1);
    time.advance(1);
    expect(backoff.waitFor('a')).toBe(0);
    expect(backoff.waitFor('b')).toBe(0);
  });

  it('starts over after a delivery gets through', () => {
    const time = clock();
    const backoff = new EndpointBackoff({ baseMs: 1_000, maxMs: 60_000 }, time.now);
    backoff.failed('a');
    backoff.failed('a');
    backoff.succeeded('a');
    expect(backoff.waitFor('a')).toBe(0);
    expect(backoff.failed('a')).toBe(1_000);
  });

  it('holds other pushes back while a delivery to the endpoint is retrying', () => {
    const time = clock();
    const backoff = new EndpointBackoff(undefined, time.now);
    backoff.retrying('a');
    expect(backoff.waitFor('a')).toBeGreaterThan(0);
    expect(backoff.waitFor('b')).toBe(0);
    backoff.doneRetrying('a');
    expect(backoff.waitFor('a')).toBe(0);
  });
});

describe('the relay settings for push services', () => {
  const base = { NODE_ENV: 'development', RELAY_SECRET: 'a-secret-of-sixteen-chars' };

  it('push to the browsers’ services alone by default', () => {
    expect(loadRelaySettings(base).endpoints).toEqual({ extraHosts: [], allowLocal: false });
  });

  it('read PUSH_ALLOWED_HOSTS and PUSH_ALLOW_LOCAL_SERVICE as the server does', () => {
    expect(
      loadRelaySettings({
        ...base,
        PUSH_ALLOWED_HOSTS: 'Push.Example.org,*.selfhosted.example',
        PUSH_ALLOW_LOCAL_SERVICE: 'true',
      }).endpoints,
    ).toEqual({ extraHosts: ['push.example.org', '*.selfhosted.example'], allowLocal: true });
    expect(() => loadRelaySettings({ ...base, PUSH_ALLOWED_HOSTS: 'https://x.example' })).toThrow(
      /PUSH_ALLOWED_HOSTS/,
    );
  });
});
