/**
 * The relay between a real Orbit server and the fake push service: what a friend event becomes at
 * the push service, who gets it, and what each push service answer does.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { NotificationPage } from '../../src/contracts/notifications.ts';
import { PUSH_TTL_SECONDS, type PushPayload } from '../../src/contracts/push.ts';
import * as PATHS from '../../src/contracts/endpoints.paths.ts';
import {
  type Member,
  asBearer,
  friendAction,
  pushRowsOf,
  signupMembers,
} from '../../server/test/factories.ts';
import { pushTopic } from '../src/deliver.ts';
import { createLogger } from '../src/log.ts';
import type { Relay } from '../src/running.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import {
  LOCAL_PUSH_SERVICE,
  type Orbit,
  RELAY_SECRET,
  VAPID_SUBJECT,
  addDevice,
  nextSettled,
  openTab,
  spawnRelay,
  startOrbit,
  startTestRelay,
  tempDir,
} from './harness.ts';

let orbit: Orbit;
let service: FakePushService;

beforeAll(async () => {
  [orbit, service] = await Promise.all([startOrbit(), startFakePushService()]);
});
afterAll(async () => {
  await service.close();
  await orbit.close();
});

/** Sends a friend request and answers once the relay has settled the event it makes. */
async function requestAndSettle(relay: Relay, from: Member, to: Member) {
  const settled = nextSettled(relay);
  const response = await friendAction(orbit.app, from, 'request', to);
  expect(response.statusCode).toBe(200);
  return settled;
}

describe('with the relay running', () => {
  let relay: Relay;
  beforeAll(async () => {
    relay = await startTestRelay(orbit, service, { health: { port: 0, host: '127.0.0.1' } });
  });
  afterAll(async () => {
    await relay.close();
  });

  it('says on its health endpoint that it is connected, holds the lease, and how far it got', async () => {
    const response = await fetch(relay.healthUrl!);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      connected: true,
      state: 'leader',
      leader: true,
      pushing: true,
      lastEventId: relay.lastEventId,
    });
  });

  it('hands its VAPID public key to the server for the clients', async () => {
    const response = await orbit.app.inject({ method: 'GET', url: PATHS.pushKey.path });
    expect(response.json()).toEqual({ publicKey: relay.vapidPublicKey });
  });

  it('pushes a friend request, encrypted and signed, with TTL, urgency and topic', async () => {
    const [alice, bob] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, bob);
    const settled = await requestAndSettle(relay, alice, bob);
    expect(settled.outcomes).toMatchObject([{ result: 'sent', status: 201 }]);

    const [push] = service.pushesFor(device.id);
    const requestId = pairKey(alice.user.id, bob.user.id);
    expect(push).toMatchObject({
      ttl: PUSH_TTL_SECONDS,
      urgency: 'high',
      topic: pushTopic(requestId),
      vapidKey: relay.vapidPublicKey,
    });
    const payload = push!.payload as PushPayload;
    expect(payload).toMatchObject({
      id: settled.id,
      kind: 'friend_request',
      requestId,
      actor: { id: alice.user.id, username: alice.username },
      url: `/profile/${alice.username}`,
    });
    const page = await orbit.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: asBearer(bob),
    });
    expect(payload.unread).toBe(page.json<NotificationPage>().unread);
    expect(payload.unread).toBeGreaterThanOrEqual(1);
    expect(payload.actor.profileImage).toMatch(/\S/);
    expect(service.rejected).toEqual([]);
  });

  it('pushes an accepted request with normal urgency to the one who asked', async () => {
    const [carol, dave] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, carol);
    await requestAndSettle(relay, carol, dave);
    const settled = nextSettled(relay);
    expect((await friendAction(orbit.app, dave, 'accept', carol)).statusCode).toBe(200);
    await settled;
    const [push] = service.pushesFor(device.id);
    expect(push).toMatchObject({
      urgency: 'normal',
      topic: pushTopic(pairKey(carol.user.id, dave.user.id)),
      payload: { kind: 'friend_accepted', actor: { username: dave.username } },
    });
  });

  it('pushes to each of a member’s two devices', async () => {
    const [erin, frank] = await signupMembers(orbit.app, 2);
    const phone = await addDevice(orbit, service, frank);
    const laptop = await addDevice(orbit, service, frank);
    const settled = await requestAndSettle(relay, erin, frank);
    expect(settled.outcomes.map((outcome) => outcome.result)).toEqual(['sent', 'sent']);
    const phonePush = service.pushesFor(phone.id);
    const laptopPush = service.pushesFor(laptop.id);
    expect(phonePush).toHaveLength(1);
    expect(laptopPush).toHaveLength(1);
    expect(phonePush[0]!.payload).toEqual(laptopPush[0]!.payload);
    expect(phonePush[0]!.topic).toBe(laptopPush[0]!.topic);
  });

  it('pushes nothing to a member with an open tab', async () => {
    const [grace, heidi] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, heidi);
    let tab: Socket | undefined = await openTab(orbit, heidi);
    try {
      const settled = await requestAndSettle(relay, grace, heidi);
      expect(settled.outcomes).toEqual([]);
      expect(service.pushesFor(device.id)).toEqual([]);
    } finally {
      tab.disconnect();
      tab = undefined;
    }
    // With the tab closed, the next event does reach the device.
    expect((await friendAction(orbit.app, grace, 'cancel', heidi)).statusCode).toBe(200);
    await requestAndSettle(relay, grace, heidi);
    expect(service.pushesFor(device.id)).toHaveLength(1);
  });

  it('deletes a device its push service calls gone (410)', async () => {
    const [ivan, judy] = await signupMembers(orbit.app, 2);
    const gone = await addDevice(orbit, service, judy);
    const kept = await addDevice(orbit, service, judy);
    service.failNext(gone.id, 410);
    const settled = await requestAndSettle(relay, ivan, judy);
    expect(settled.outcomes.map((outcome) => outcome.result).sort()).toEqual(['gone', 'sent']);
    const rows = await pushRowsOf(orbit.app, judy.user.id);
    expect(rows.map((row) => row.endpoint)).toEqual([kept.endpoint]);
  });

  it('retries a 503 and delivers once', async () => {
    const [ken, lena] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, lena);
    service.failNext(device.id, 503, 2);
    const before = service.requests;
    const settled = await requestAndSettle(relay, ken, lena);
    expect(settled.outcomes).toMatchObject([{ result: 'sent', attempts: 3 }]);
    expect(service.requests - before).toBe(3);
    expect(service.pushesFor(device.id)).toHaveLength(1);
  });

  it('drops a push the service refuses for good (400) and moves on', async () => {
    const [mia, nick] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, nick);
    service.failNext(device.id, 400, 5);
    const settled = await requestAndSettle(relay, mia, nick);
    expect(settled.outcomes).toMatchObject([{ result: 'dropped', status: 400, attempts: 1 }]);
    expect(await pushRowsOf(orbit.app, nick.user.id)).toHaveLength(1);
    expect(relay.lastEventId).toBe(settled.id);
  });

  it('counts its deliveries by result on /metrics beside the health check', async () => {
    const deliveries = async () => {
      const response = await fetch(relay.healthUrl!.replace('/healthz', '/metrics'));
      expect(response.headers.get('content-type')).toContain('text/plain');
      const text = await response.text();
      expect(text).toContain('orbit_relay_leader 1');
      expect(text).toContain('orbit_relay_connected 1');
      const count = (result: string) =>
        Number(
          text.match(new RegExp(`orbit_push_deliveries_total\\{result="${result}"\\} (\\d+)`))?.[1],
        );
      return {
        sent: count('sent'),
        gone: count('gone'),
        dropped: count('dropped'),
        failed: count('failed'),
      };
    };
    const before = await deliveries();
    const [olga, paul] = await signupMembers(orbit.app, 2);
    const gone = await addDevice(orbit, service, paul);
    const refusing = await addDevice(orbit, service, paul);
    await addDevice(orbit, service, paul);
    service.failNext(gone.id, 410);
    service.failNext(refusing.id, 400, 5);

    await requestAndSettle(relay, olga, paul);

    expect(await deliveries()).toEqual({
      sent: before.sent + 1,
      gone: before.gone + 1,
      dropped: before.dropped + 1,
      failed: before.failed,
    });
  });
});

/** Moves a stored device to another endpoint, as a row kept before the push service rule. */
async function storedAt(endpoint: string, device: { endpoint: string }) {
  await orbit.app.db
    .updateTable('push_subscriptions')
    .set({ endpoint })
    .where('endpoint', '=', device.endpoint)
    .execute();
}

/** A relay logger whose lines the test reads. */
function capturedLog() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('debug', {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  return {
    logger,
    lines,
    warned: (msg: string) => lines.filter((l) => l.level === 40 && l.msg === msg),
  };
}

/** The outcome of a device the relay refuses to push to, without one attempt. */
const refusedBeforeSending = (reason: string) => ({
  result: 'dropped',
  status: undefined,
  reason,
  attempts: 0,
  refused: true,
});

const REFUSED_MESSAGE = 'push refused: not a push service Orbit sends to; telling the server';

describe('a relay that pushes only to push services', () => {
  it('drops a device stored at a host that is no push service, counts it, and has the server forget it', async () => {
    const log = capturedLog();
    // The relay's own rule, without the tests' local push service.
    const relay = await startTestRelay(orbit, service, {
      endpoints: { extraHosts: [], allowLocal: false },
      logger: log.logger,
      health: { port: 0, host: '127.0.0.1' },
    });
    try {
      const [tina, uma] = await signupMembers(orbit.app, 2);
      const device = await addDevice(orbit, service, uma);

      const settled = await requestAndSettle(relay, tina, uma);

      expect(settled.outcomes).toEqual([refusedBeforeSending('not a push service Orbit sends to')]);
      expect(service.attemptsFor(device.id)).toBe(0);
      await expect.poll(async () => pushRowsOf(orbit.app, uma.user.id)).toEqual([]);
      expect(log.warned(REFUSED_MESSAGE)).toMatchObject([
        { service: service.origin, reason: 'not a push service Orbit sends to' },
      ]);
      // The endpoint is a capability URL: the log names its service only.
      expect(JSON.stringify(log.lines)).not.toContain(device.id);
      const metrics = await (await fetch(relay.healthUrl!.replace('/healthz', '/metrics'))).text();
      expect(metrics).toContain('orbit_push_deliveries_total{result="dropped"} 1');
    } finally {
      await relay.close();
    }
  });

  it('drops an allowed host that resolves to a loopback address at send time (localhost), warning once', async () => {
    const log = capturedLog();
    const relay = await startTestRelay(orbit, service, {
      endpoints: { extraHosts: ['localhost'], allowLocal: false },
      logger: log.logger,
    });
    try {
      const [wes, xena, yuri] = await signupMembers(orbit.app, 3);
      const endpoint = `https://localhost/push/${randomUUID()}`;
      await storedAt(endpoint, await addDevice(orbit, service, xena));

      const settled = await requestAndSettle(relay, wes, xena);

      expect(settled.outcomes).toMatchObject([
        {
          result: 'dropped',
          reason: 'the push service resolves to a loopback address',
          refused: true,
        },
      ]);
      await expect.poll(async () => pushRowsOf(orbit.app, xena.user.id)).toEqual([]);

      // The same endpoint again (stored anew): refused again, logged below warn this time.
      await storedAt(endpoint, await addDevice(orbit, service, xena));
      expect((await requestAndSettle(relay, yuri, xena)).outcomes).toMatchObject([
        { result: 'dropped', refused: true },
      ]);
      expect(log.warned(REFUSED_MESSAGE)).toHaveLength(1);
      expect(log.lines.filter((line) => line.msg === 'push refused')).toHaveLength(1);
    } finally {
      await relay.close();
    }
  });

  it('drops a device stored at an endpoint web-push would send to another host, looking nothing up', async () => {
    const looked: string[] = [];
    const relay = await startTestRelay(orbit, service, {
      endpoints: { extraHosts: [], allowLocal: false },
      resolve: (hostname) => {
        looked.push(hostname);
        // A documentation address: refused too, so no test ever connects out.
        return Promise.resolve([{ address: '192.0.2.1', family: 4 }]);
      },
    });
    try {
      const [ann, ben] = await signupMembers(orbit.app, 2);
      // Under push.apple.com to new URL(), evil.example to url.parse(): a row kept before the
      // server refused such endpoints.
      await storedAt(
        'https://evil.example%2ex.push.apple.com/x',
        await addDevice(orbit, service, ben),
      );

      const settled = await requestAndSettle(relay, ann, ben);

      expect(settled.outcomes).toEqual([
        refusedBeforeSending(
          'the endpoint reads as another address to the sender than to the check',
        ),
      ]);
      expect(looked).toEqual([]);
      await expect.poll(async () => pushRowsOf(orbit.app, ben.user.id)).toEqual([]);
    } finally {
      await relay.close();
    }
  });

  it('drops an allowed host that resolves to a private address at send time', async () => {
    const relay = await startTestRelay(orbit, service, {
      endpoints: { extraHosts: ['push.selfhosted.test'], allowLocal: false },
      resolve: () => Promise.resolve([{ address: '10.20.30.40', family: 4 }]),
    });
    try {
      const [yan, zoe] = await signupMembers(orbit.app, 2);
      const device = await addDevice(orbit, service, zoe);
      await storedAt(`https://push.selfhosted.test/push/${device.id}`, device);

      const settled = await requestAndSettle(relay, yan, zoe);

      expect(settled.outcomes).toMatchObject([
        { result: 'dropped', reason: 'the push service resolves to a private address' },
      ]);
      await expect.poll(async () => pushRowsOf(orbit.app, zoe.user.id)).toEqual([]);
    } finally {
      await relay.close();
    }
  });
});

describe('a relay pushing to an endpoint that keeps failing', () => {
  it('skips its pushes while it rests: many friend events cost one delivery’s attempts', async () => {
    const relay = await startTestRelay(orbit, service, {
      retry: { baseMs: 20, maxAttempts: 3, budgetMs: 10_000 },
      // Longer than the test: every later event falls inside the rest.
      backoff: { baseMs: 60_000, maxMs: 60_000 },
    });
    try {
      const [target, ...senders] = await signupMembers(orbit.app, 9);
      const device = await addDevice(orbit, service, target);
      service.failNext(device.id, 503, 1_000);

      const first = await requestAndSettle(relay, senders[0], target);
      const later = [];
      for (const sender of senders.slice(1))
        later.push(await requestAndSettle(relay, sender, target));

      expect(first.outcomes).toMatchObject([{ result: 'failed', status: 503, attempts: 3 }]);
      expect(later.flatMap((event) => event.outcomes)).toEqual(
        Array.from({ length: 7 }, () => ({
          result: 'dropped',
          status: undefined,
          reason: 'the endpoint failed lately',
          attempts: 0,
          backingOff: true,
        })),
      );
      // Eight friend events, three requests: those of the first delivery.
      expect(service.attemptsFor(device.id)).toBe(3);
      // A device that keeps failing stays: it may come back.
      expect(await pushRowsOf(orbit.app, target.user.id)).toHaveLength(1);
    } finally {
      await relay.close();
    }
  });

  it('skips pushes inside the rest and pushes again after it', async () => {
    const relay = await startTestRelay(orbit, service, {
      retry: { baseMs: 20, maxAttempts: 2, budgetMs: 10_000 },
      backoff: { baseMs: 2_000, maxMs: 2_000 },
    });
    try {
      const [target, ann, ben, cal, dan] = await signupMembers(orbit.app, 5);
      const device = await addDevice(orbit, service, target);
      service.failNext(device.id, 503, 2);
      expect((await requestAndSettle(relay, ann, target)).outcomes).toMatchObject([
        { result: 'failed', attempts: 2 },
      ]);
      const rested = performance.now();
      expect((await requestAndSettle(relay, ben, target)).outcomes).toMatchObject([
        { result: 'dropped', backingOff: true },
      ]);
      // Waits out the rest (2 s from the failure) on purpose: pushes go out again after it.
      await new Promise((resolve) => setTimeout(resolve, 2_000 - (performance.now() - rested)));

      expect((await requestAndSettle(relay, cal, target)).outcomes).toMatchObject([
        { result: 'sent' },
      ]);
      expect((await requestAndSettle(relay, dan, target)).outcomes).toMatchObject([
        { result: 'sent' },
      ]);
      expect(service.attemptsFor(device.id)).toBe(4);
      expect(service.pushesFor(device.id)).toHaveLength(2);
    } finally {
      await relay.close();
    }
  });
});

describe('a relay killed and started again', () => {
  it('pushes a request sent while it was down exactly once after the restart', async () => {
    const dataDir = await tempDir();
    const caFile = path.join(dataDir, 'push-ca.pem');
    await fs.writeFile(caFile, service.certificate);
    const env = {
      SERVER_URL: orbit.url,
      RELAY_SECRET,
      DATA_DIR: dataDir,
      VAPID_SUBJECT,
      NODE_EXTRA_CA_CERTS: caFile,
      ...LOCAL_PUSH_SERVICE,
      PUSH_RETRY_BASE_MS: '50',
      // The killed relay's lease runs out this soon, and the new one takes over.
      PUSH_LEASE_SECONDS: '1',
    };
    const [olga, peter, quinn] = await signupMembers(orbit.app, 3);
    const device = await addDevice(orbit, service, peter);

    const first = spawnRelay(env);
    await first.logged('this relay is sending the pushes');
    // Start-up says where pushes go; the lease's inner words wait for LOG_LEVEL=debug.
    expect(await first.logged('push is on')).toMatchObject({
      server: orbit.url,
      pushesTo: ['the browsers’ push services'],
    });
    expect(first.lines.map((line) => line.msg)).not.toContain('took the push lease');
    expect(first.lines.filter((line) => 'cursor' in line)).toEqual([]);
    expect((await friendAction(orbit.app, olga, 'request', peter)).statusCode).toBe(200);
    const before = await service.waitFor((push) => push.subscriptionId === device.id);
    // The server keeps that event as handled before the relay dies.
    const savedCursor = async () =>
      (await orbit.app.db.selectFrom('relay_lease').select('cursor').executeTakeFirst())?.cursor;
    await expect.poll(savedCursor).toBe((before.payload as PushPayload).id);
    first.child.kill('SIGKILL');
    await first.exited;

    expect((await friendAction(orbit.app, quinn, 'request', peter)).statusCode).toBe(200);
    const topic = pushTopic(pairKey(quinn.user.id, peter.user.id));
    expect(service.received.filter((push) => push.topic === topic)).toEqual([]);

    // The lease's turns (with the cursor the relay goes on from) are logged at debug.
    const second = spawnRelay({ ...env, LOG_LEVEL: 'debug' });
    try {
      await second.logged('this relay is sending the pushes');
      const push = await service.waitFor((received) => received.topic === topic);
      expect(push.payload).toMatchObject({
        kind: 'friend_request',
        actor: { username: quinn.username },
      });
      const took = second.lines.find((line) => line.msg === 'took the push lease');
      expect(took?.cursor).toBe((before.payload as PushPayload).id);
      await expect.poll(savedCursor).toBe((push.payload as PushPayload).id);
      expect(service.received.filter((received) => received.topic === topic)).toHaveLength(1);
      // The request pushed before the kill is not pushed again.
      expect(service.pushesFor(device.id)).toHaveLength(2);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    expect(second.child.exitCode).toBe(0);
  });
});

describe('a relay with the wrong secret', () => {
  it('is refused and delivers nothing', async () => {
    const [rita, sam] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, sam);
    const relay = await startTestRelay(orbit, service);
    const vapidKey = async () =>
      (await orbit.app.inject({ method: 'GET', url: PATHS.pushKey.path })).json<{
        publicKey: string;
      }>().publicKey;
    const impostor = await startTestRelay(orbit, service, { secret: 'not-the-relay-secret-0000' });
    try {
      const refused = await new Promise<string>((resolve) => impostor.once('refused', resolve));
      expect(refused).toBe('unauthorized');
      expect(impostor.connected).toBe(false);
      // The relay with the secret pushes the request: it arrives once, signed by that relay alone.
      expect((await requestAndSettle(relay, rita, sam)).outcomes).toHaveLength(1);
      expect(service.pushesFor(device.id).map((push) => push.vapidKey)).toEqual([
        relay.vapidPublicKey,
      ]);
      expect(service.received.map((push) => push.vapidKey)).not.toContain(impostor.vapidPublicKey);
      expect(await vapidKey()).toBe(relay.vapidPublicKey);
    } finally {
      await Promise.all([impostor.close(), relay.close()]);
    }
  });
});
