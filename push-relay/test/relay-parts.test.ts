import fs from 'node:fs/promises';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import pLimit from 'p-limit';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_PROGRESS_LIMITS, RelayCursorAnswer } from '../../src/contracts/push.ts';
import { checkVapidSubject, loadRelaySettings } from '../src/config.ts';
import { EventLedger, deviceKey } from '../src/ledger.ts';
import { LEGACY_CURSOR_FILE, readLegacyCursor } from '../src/legacyCursor.ts';
import {
  type PushSender,
  VapidAuthorization,
  deliver,
  pushTopic,
  retryAfterMs,
} from '../src/deliver.ts';
import { CatchUpPageSchema, answerOf, eventIdOf, parseEvent } from '../src/events.ts';
import { loadVapidKeys } from '../src/vapid.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
} from './fake-push-service.ts';
import { pushPayload } from './payloads.ts';
import { verifyVapid } from './push-crypto.ts';

const tempDir = () => fs.mkdtemp(path.join(os.tmpdir(), 'orbit-relay-unit-'));

describe('the event ledger', () => {
  it('moves the cursor only over settled events, whatever order they settle in', () => {
    const ledger = new EventLedger(10);
    for (const id of [12, 15, 20]) ledger.begin(id);
    expect(ledger.settle(20)).toBe(false);
    expect(ledger.cursor).toBe(10);
    expect(ledger.settle(12)).toBe(true);
    expect(ledger.cursor).toBe(12);
    expect(ledger.settle(15)).toBe(true);
    expect(ledger.cursor).toBe(20);
  });

  it('knows an event it is handling or handled lately, and not one it never saw', () => {
    const ledger = new EventLedger(null);
    ledger.begin(3);
    expect(ledger.has(3)).toBe(true);
    ledger.settle(3);
    expect(ledger.has(3)).toBe(true);
    expect(ledger.has(2)).toBe(false);
    expect(ledger.cursor).toBe(3);
  });

  it('keeps the cursor below an event whose handling stopped, and lets it be handled again', () => {
    const ledger = new EventLedger(10);
    for (const id of [11, 12]) ledger.begin(id);
    ledger.abandon(11);
    expect(ledger.settle(12)).toBe(false);
    expect(ledger.cursor).toBe(10);
    expect(ledger.has(11)).toBe(false);
    ledger.begin(11);
    expect(ledger.settle(11)).toBe(true);
    expect(ledger.cursor).toBe(12);
  });

  it('reports the settled events above the cursor and the devices done of unsettled ones', () => {
    const ledger = new EventLedger(10);
    for (const id of [11, 12, 13]) ledger.begin(id);
    ledger.settle(13);
    ledger.deviceDone(12, 'phone');
    ledger.deviceDone(11, 'laptop');
    ledger.abandon(11);
    expect(ledger.progress()).toEqual({
      cursor: 10,
      settled: [13],
      sent: [
        { id: 11, devices: ['laptop'] },
        { id: 12, devices: ['phone'] },
      ],
    });
    ledger.settle(12);
    expect(ledger.progress()).toEqual({
      cursor: 10,
      settled: [12, 13],
      sent: [{ id: 11, devices: ['laptop'] }],
    });
  });

  it('reports nothing before it knows a cursor', () => {
    expect(new EventLedger(null).progress()).toBeNull();
  });

  it('keeps a report within its byte budget by leaving out the highest ids', () => {
    const ledger = new EventLedger(1_000_000);
    ledger.begin(1_000_001);
    for (let id = 1_000_002; id < 1_003_000; id++) {
      ledger.begin(id);
      ledger.settle(id);
    }
    const progress = ledger.progress()!;
    expect(JSON.stringify(progress).length).toBeLessThanOrEqual(RELAY_PROGRESS_LIMITS.bytes);
    expect(progress.settled[0]).toBe(1_000_002);
    expect(progress.settled.length).toBeGreaterThan(1_000);
    expect(progress.settled).toEqual([...progress.settled].sort((a, b) => a - b));
  });

  it('takes in a reported progress: settled events are known, done devices are skipped', () => {
    const ledger = new EventLedger(null);
    ledger.adopt({ cursor: 20, settled: [23], sent: [{ id: 21, devices: ['phone'] }] });
    expect(ledger.cursor).toBe(20);
    expect(ledger.has(23)).toBe(true);
    expect(ledger.has(21)).toBe(false);
    expect(ledger.isDeviceDone(21, 'phone')).toBe(true);
    expect(ledger.isDeviceDone(21, 'laptop')).toBe(false);
    ledger.begin(21);
    ledger.begin(22);
    ledger.settle(21);
    expect(ledger.cursor).toBe(21);
    ledger.settle(22);
    expect(ledger.cursor).toBe(22);
    ledger.confirm(23);
    expect(ledger.cursor).toBe(23);
  });

  it('does not pass an event settled by an earlier holder before it has met the events below', () => {
    const ledger = new EventLedger(null);
    ledger.adopt({ cursor: 20, settled: [25], sent: [] });
    ledger.begin(21);
    ledger.settle(21);
    expect(ledger.cursor).toBe(21);
    expect(ledger.progress()).toEqual({ cursor: 21, settled: [25], sent: [] });
  });

  it('keeps the furthest cursor when a report and its own memory differ', () => {
    const ahead = new EventLedger(30);
    ahead.adopt({ cursor: 25, settled: [27], sent: [] });
    expect(ahead.cursor).toBe(30);
    const behind = new EventLedger(30);
    behind.begin(31);
    behind.deviceDone(31, 'phone');
    behind.abandon(31);
    behind.adopt({ cursor: 40, settled: [], sent: [] });
    expect(behind.cursor).toBe(40);
    expect(behind.progress()).toEqual({ cursor: 40, settled: [], sent: [] });
  });

  it('keeps the cursor where it is when an older event settles late', () => {
    const ledger = new EventLedger(50);
    ledger.begin(40);
    expect(ledger.settle(40)).toBe(false);
    expect(ledger.cursor).toBe(50);
  });
});

describe('a device key', () => {
  it('is 22 base64url characters, the same for one endpoint and different for another', () => {
    const endpoint = 'https://push.example.net/send/abc';
    expect(deviceKey(endpoint)).toMatch(/^[\w-]{22}$/);
    expect(deviceKey(endpoint)).toBe(deviceKey(endpoint));
    expect(deviceKey(`${endpoint}d`)).not.toBe(deviceKey(endpoint));
    expect(deviceKey(endpoint)).not.toContain('push.example.net');
  });
});

describe('the cursor file relays kept before the server kept it', () => {
  it('answers the position it holds, and null when there is none', async () => {
    const dir = await tempDir();
    expect(await readLegacyCursor(dir)).toBeNull();
    await fs.writeFile(path.join(dir, LEGACY_CURSOR_FILE), '{"lastEventId":42}\n');
    expect((await readLegacyCursor(dir))?.position).toBe(42);
    await fs.rm(dir, { recursive: true });
  });

  it('is removed once retired, so that it is never read again', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, LEGACY_CURSOR_FILE), '{"lastEventId":42}');
    const legacy = await readLegacyCursor(dir);
    await Promise.all([legacy!.retire(), legacy!.retire()]);
    expect(await fs.readdir(dir)).toEqual([]);
    expect(await readLegacyCursor(dir)).toBeNull();
    await fs.rm(dir, { recursive: true });
  });

  it('refuses a file that is not a cursor', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, LEGACY_CURSOR_FILE), '{"lastEventId":"x"}');
    await expect(readLegacyCursor(dir)).rejects.toThrow(/not a relay cursor/);
    await fs.rm(dir, { recursive: true });
  });
});

describe('settings', () => {
  const base = { RELAY_SECRET: 'a-long-enough-relay-secret' };

  it('defaults to the server on this machine and a development subject outside production', () => {
    const settings = loadRelaySettings({ ...base, NODE_ENV: 'development', PORT: '5123' });
    expect(settings.serverUrl).toBe('http://127.0.0.1:5123');
    expect(settings.vapidSubject).toBe('mailto:admin@localhost');
  });

  it('requires RELAY_SECRET', () => {
    expect(() => loadRelaySettings({ NODE_ENV: 'development' })).toThrow(/RELAY_SECRET/);
  });

  it('takes VAPID_SUBJECT when given, whatever PUBLIC_URL says', () => {
    expect(
      loadRelaySettings({
        ...base,
        VAPID_SUBJECT: 'mailto:ops@orbit.example',
        PUBLIC_URL: 'http://orbit.lan',
      }).vapidSubject,
    ).toBe('mailto:ops@orbit.example');
  });

  it('refuses a VAPID_SUBJECT push services would refuse in production', () => {
    expect(() => checkVapidSubject('mailto:admin@localhost', true)).toThrow(/real address/);
    expect(() => checkVapidSubject('https://127.0.0.1/contact', true)).toThrow(/real address/);
    expect(() => checkVapidSubject('http://orbit.example/contact', true)).toThrow(
      /mailto: or https:/,
    );
    expect(checkVapidSubject('mailto:ops@orbit.example', true)).toBe('mailto:ops@orbit.example');
    expect(checkVapidSubject('https://orbit.example/contact', true)).toBe(
      'https://orbit.example/contact',
    );
  });

  it('falls back to PUBLIC_URL in production when it is an https: address', () => {
    expect(checkVapidSubject(undefined, true, 'https://orbit.example/app')).toBe(
      'https://orbit.example',
    );
  });

  it('falls back to the local mailto in production when Orbit is served from this machine', () => {
    expect(loadRelaySettings({ ...base, NODE_ENV: 'production' }).vapidSubject).toBe(
      'mailto:admin@localhost',
    );
    for (const local of ['http://localhost:5000', 'http://127.0.0.1:5000', 'https://localhost'])
      expect(checkVapidSubject(undefined, true, local)).toBe('mailto:admin@localhost');
  });

  it('turns push off in production when PUBLIC_URL is neither https: nor this machine, and says what to set', () => {
    expect(() => checkVapidSubject(undefined, true, 'http://orbit.lan')).toThrow(
      /^Push notifications are off: PUBLIC_URL is http:\/\/orbit\.lan, not https: .*Set VAPID_SUBJECT=mailto:you@example\.com, or serve Orbit over https: and set PUBLIC_URL/,
    );
    expect(() => checkVapidSubject(undefined, true, 'https://orbit')).toThrow(
      /Push notifications are off: .*no domain/,
    );
  });

  it('refuses a PUBLIC_URL that is not an http: or https: URL', () => {
    expect(() => loadRelaySettings({ ...base, PUBLIC_URL: 'orbit.example' })).toThrow(
      /PUBLIC_URL must be an http: or https: URL/,
    );
    expect(() => checkVapidSubject(undefined, true, 'ftp://orbit.example')).toThrow(/PUBLIC_URL/);
  });

  it('keeps push on outside production with the local mailto, whatever PUBLIC_URL says', () => {
    expect(checkVapidSubject(undefined, false, 'http://orbit.lan')).toBe('mailto:admin@localhost');
  });

  it('holds the push lease for 10 s unless PUSH_LEASE_SECONDS says otherwise', () => {
    const dev = { ...base, NODE_ENV: 'development' };
    expect(loadRelaySettings(dev).leaseMs).toBe(10_000);
    expect(loadRelaySettings({ ...dev, PUSH_LEASE_SECONDS: '1.5' }).leaseMs).toBe(1_500);
  });

  it('refuses a lease shorter than a second or longer than five minutes', () => {
    expect(() => loadRelaySettings({ ...base, PUSH_LEASE_SECONDS: '0.5' })).toThrow(
      /PUSH_LEASE_SECONDS/,
    );
    expect(() => loadRelaySettings({ ...base, PUSH_LEASE_SECONDS: '301' })).toThrow(
      /PUSH_LEASE_SECONDS/,
    );
  });

  it('wants both VAPID keys or neither', () => {
    expect(() => loadRelaySettings({ ...base, VAPID_PUBLIC_KEY: 'abc' })).toThrow(/both/);
  });
});

describe('VAPID keys', () => {
  it('are generated once, kept readable by the owner only, and reused', async () => {
    const dir = await tempDir();
    const first = await loadVapidKeys(undefined, dir);
    expect(first.source).toBe('generated');
    const stat = await fs.stat(path.join(dir, 'vapid.json'));
    expect(stat.mode & 0o777).toBe(0o600);
    const second = await loadVapidKeys(undefined, dir);
    expect(second).toMatchObject({ source: 'file', keys: first.keys });
    await fs.rm(dir, { recursive: true });
  });

  it('are one pair for relays starting at once on a shared data directory', async () => {
    const dir = await tempDir();
    const loaded = await Promise.all(
      Array.from({ length: 6 }, () => loadVapidKeys(undefined, dir)),
    );
    const stored = JSON.parse(await fs.readFile(path.join(dir, 'vapid.json'), 'utf8')) as unknown;
    expect(loaded.filter((result) => result.source === 'generated')).toHaveLength(1);
    for (const result of loaded) expect(result.keys).toEqual(stored);
    expect(await fs.readdir(dir)).toEqual(['vapid.json']);
    await fs.rm(dir, { recursive: true });
  });

  it('come from the environment when given there', async () => {
    const dir = await tempDir();
    const keys = webpush.generateVAPIDKeys();
    const loaded = await loadVapidKeys(keys, dir);
    expect(loaded).toMatchObject({ source: 'environment', keys });
    expect(await fs.readdir(dir)).toEqual([]);
    await expect(loadVapidKeys({ publicKey: 'short', privateKey: 'x' }, dir)).rejects.toThrow(
      /VAPID key pair/,
    );
    await fs.rm(dir, { recursive: true });
  });
});

describe('the VAPID authorization', () => {
  const authorization = new VapidAuthorization({
    ...webpush.generateVAPIDKeys(),
    subject: 'mailto:ops@orbit.example',
  });
  const endpoint = 'https://push.example.net/send/abc';

  it('is one signed token per push service, reused until it nears expiry', () => {
    const now = Math.floor(Date.now() / 1000);
    const first = authorization.for(endpoint, now);
    expect(verifyVapid(first, 'https://push.example.net').claims.exp).toBe(now + 12 * 3600);
    expect(authorization.for('https://push.example.net/send/other', now + 60)).toBe(first);
    expect(authorization.for('https://other.example.net/x', now)).not.toBe(first);
    const renewed = authorization.for(endpoint, now + 11.5 * 3600);
    expect(renewed).not.toBe(first);
    expect(verifyVapid(renewed, 'https://push.example.net', now + 11.5 * 3600).claims.exp).toBe(
      now + 23.5 * 3600,
    );
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs(undefined, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

describe('one delivery against the fake push service', () => {
  let service: FakePushService;
  let sender: PushSender;
  const payload = pushPayload({ unread: 1 });
  const signal = new AbortController().signal;

  beforeAll(async () => {
    service = await startFakePushService();
    sender = {
      vapid: new VapidAuthorization({
        ...webpush.generateVAPIDKeys(),
        subject: 'mailto:ops@orbit.example',
      }),
      ttlSeconds: 600,
      agent: new https.Agent({
        keepAlive: true,
        ca: [...tls.rootCertificates, service.certificate],
      }),
      limiter: pLimit(4),
      retry: { maxAttempts: 3, baseMs: 20, budgetMs: 5_000 },
      timeoutMs: 5_000,
    };
  });
  afterAll(async () => {
    sender.agent.destroy();
    await service.close();
  });

  const deliverTo = (device: FakeSubscription) => deliver(sender, device, payload, signal);
  /** A device whose push service answers its next `count` pushes with `status`. */
  const failingDevice = (status: number, count: number, headers?: Record<string, string>) => {
    const device = service.subscribe();
    service.failNext(device.id, status, count, headers);
    return device;
  };

  it('arrives decrypted with TTL, urgency and topic', async () => {
    const device = service.subscribe();
    const outcome = await deliverTo(device);
    expect(outcome).toMatchObject({ result: 'sent', status: 201, attempts: 1 });
    const [push] = service.pushesFor(device.id);
    expect(push).toMatchObject({
      payload,
      ttl: 600,
      urgency: 'high',
      topic: pushTopic('req-1'),
      vapidKey: sender.vapid.vapid.publicKey,
    });
    expect(push?.topic).toMatch(/^[\w-]{32}$/);
    expect(service.rejected).toEqual([]);
  });

  it('retries a 503 and a 429 with Retry-After, then arrives once', async () => {
    const device = failingDevice(503, 1);
    const outcome = await deliverTo(device);
    expect(outcome).toMatchObject({ result: 'sent', attempts: 2 });
    const limited = failingDevice(429, 1, { 'retry-after': '1' });
    const started = Date.now();
    expect(await deliverTo(limited)).toMatchObject({ result: 'sent' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(service.pushesFor(device.id)).toHaveLength(1);
    expect(service.pushesFor(limited.id)).toHaveLength(1);
  });

  it('gives up after the last attempt', async () => {
    const device = failingDevice(500, 10);
    expect(await deliverTo(device)).toMatchObject({ result: 'failed', status: 500, attempts: 3 });
  });

  it('calls 404 and 410 gone, and drops other 4xx without retrying', async () => {
    const gone = failingDevice(410, 1);
    expect(await deliverTo(gone)).toMatchObject({ result: 'gone', status: 410 });
    const unknown = { ...gone, endpoint: `${service.origin}/push/nobody` };
    expect(await deliverTo(unknown)).toMatchObject({ result: 'gone', status: 404 });
    const refused = failingDevice(413, 5);
    const requestsBefore = service.requests;
    expect(await deliverTo(refused)).toMatchObject({
      result: 'dropped',
      status: 413,
      attempts: 1,
    });
    expect(service.requests - requestsBefore).toBe(1);
  });

  it('retries a push service that cannot be reached', async () => {
    const device = service.subscribe();
    const closed = { ...device, endpoint: 'https://127.0.0.1:1/push/x' };
    expect(await deliverTo(closed)).toMatchObject({ result: 'failed', attempts: 3 });
  });

  it('gives up at once when Retry-After would end past the budget', async () => {
    const device = failingDevice(429, 1, { 'retry-after': '60' });
    expect(await deliverTo(device)).toMatchObject({ result: 'failed', status: 429, attempts: 1 });
    expect(service.attemptsFor(device.id)).toBe(1);
  });

  it('stops waiting for the next attempt when the relay stops', async () => {
    const device = failingDevice(503, 5, { 'retry-after': '2' });
    const stopping = new AbortController();
    const delivery = deliver(sender, device, payload, stopping.signal, () =>
      stopping.abort(new Error('the relay is stopping')),
    );
    await expect(delivery).rejects.toThrow();
    expect(service.attemptsFor(device.id)).toBe(1);
  });
});

describe('the delivery limit', () => {
  let service: FakePushService;
  const payload = pushPayload({
    id: 8,
    kind: 'friend_accepted',
    requestId: 'req-2',
    actor: { id: 'u2', username: 'bob', profileImage: '/uploads/b.png' },
    url: '/profile/bob',
    unread: 1,
  });
  const signal = new AbortController().signal;
  const senderWith = (limiter: PushSender['limiter']): PushSender => ({
    vapid: new VapidAuthorization({
      ...webpush.generateVAPIDKeys(),
      subject: 'mailto:ops@orbit.example',
    }),
    ttlSeconds: 600,
    agent: new https.Agent({ keepAlive: true, ca: [...tls.rootCertificates, service.certificate] }),
    limiter,
    retry: { maxAttempts: 3, baseMs: 20, budgetMs: 5_000 },
    timeoutMs: 5_000,
  });

  beforeAll(async () => {
    service = await startFakePushService();
  });
  afterAll(() => service.close());

  it('sends every request through the limit, never more at once than it allows', async () => {
    const limit = pLimit(3);
    const sender = senderWith(limit);
    const running: number[] = [];
    const onPush = () => running.push(limit.activeCount);
    service.on('push', onPush);
    const devices = Array.from({ length: 20 }, () => service.subscribe());
    const outcomes = await Promise.all(
      devices.map((device) => deliver(sender, device, payload, signal)),
    );
    service.off('push', onPush);
    sender.agent.destroy();
    expect(outcomes.every((outcome) => outcome.result === 'sent')).toBe(true);
    expect(running).toHaveLength(20);
    expect(Math.min(...running)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...running)).toBeLessThanOrEqual(3);
  });

  it('holds no slot while waiting to retry: another device goes first', async () => {
    const sender = senderWith(pLimit(1));
    const slow = service.subscribe();
    const quick = service.subscribe();
    service.failNext(slow.id, 429, 1, { 'retry-after': '1' });
    const order: string[] = [];
    const onPush = (push: { subscriptionId: string }) => order.push(push.subscriptionId);
    service.on('push', onPush);
    const slowDelivery = deliver(sender, slow, payload, signal, () => {
      void deliver(sender, quick, payload, signal);
    });
    expect(await slowDelivery).toMatchObject({ result: 'sent', attempts: 2 });
    service.off('push', onPush);
    sender.agent.destroy();
    expect(order).toEqual([quick.id, slow.id]);
  });
});

describe('what comes off the wire', () => {
  const event = { payload: pushPayload(), recipientId: 'u-bob', subscriptions: [] };

  it('takes an event that fits the contract', () => {
    expect(parseEvent(event)).toEqual({ ok: true, event });
  });

  it('names the problem and keeps the id of an event that does not fit', () => {
    const parsed = parseEvent({ ...event, payload: { ...event.payload, url: '//evil.example' } });
    expect(parsed).toMatchObject({
      ok: false,
      id: 7,
      problem: 'payload: Invalid push payload: url',
    });
  });

  it('has no id for an event without a usable one', () => {
    expect(parseEvent({ payload: { id: -1 } })).toMatchObject({ ok: false, id: undefined });
  });

  it('reads a catch-up page with its events unchecked, one by one', () => {
    const page = { events: [event, { payload: { id: 9 } }], latest: 9 };
    expect(answerOf(CatchUpPageSchema, page, () => null)).toEqual(page);
    expect(page.events.map(parseEvent).map(eventIdOf)).toEqual([7, 9]);
  });

  it('turns an answer that does not fit into the caller’s error', () => {
    const answer = answerOf(RelayCursorAnswer, { ok: 'yes' }, (problem) => ({
      ok: false as const,
      error: problem,
      leaseLost: false,
    }));
    expect(answer).toMatchObject({
      ok: false,
      leaseLost: false,
      error: expect.any(String) as string,
    });
  });
});
