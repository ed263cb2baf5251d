/**
 * Relays sharing one server: the holder of the lease pushes, the others stand by, and the next
 * holder goes on from where the last one got. (Several server nodes and a killed relay:
 * nodes.test.ts.)
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairKey } from '../../src/contracts/friends.ts';
import type { PushPayload } from '../../src/contracts/push.ts';
import { type Member, friendAction, signupMembers } from '../../server/test/factories.ts';
import { pushTopic } from '../src/deliver.ts';
import type { Relay, RelayConfig } from '../src/running.ts';
import { type FakePushService, startFakePushService } from './fake-push-service.ts';
import { type Orbit, addDevice, startOrbit, startTestRelay, tempDir } from './harness.ts';

const LEASE_MS = 1_000;

let service: FakePushService;
beforeAll(async () => {
  service = await startFakePushService();
});
afterAll(async () => {
  await service.close();
});

const startRelay = (orbit: Orbit, overrides: Partial<RelayConfig> = {}) =>
  startTestRelay(orbit, service, {
    leaseMs: LEASE_MS,
    health: { port: 0, host: '127.0.0.1' },
    ...overrides,
  });

const health = async (relay: Relay) => (await fetch(relay.healthUrl!)).json();

const latestNotificationId = async (orbit: Orbit) =>
  Number(
    (
      await orbit.app.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('latest'))
        .executeTakeFirst()
    )?.latest ?? 0,
  );

/** Pushes of the friend request `from` sent `to`, at any device. */
const pushesOfRequest = (from: Member, to: Member) =>
  service.received.filter((push) => push.topic === pushTopic(pairKey(from.user.id, to.user.id)));

/** Starts an Orbit server before the suite's tests, hands it to `use`, and closes it after them. */
function orbitForSuite(use: (started: Orbit) => void) {
  let started: Orbit | undefined;
  beforeAll(async () => {
    started = await startOrbit();
    use(started);
  });
  afterAll(async () => {
    await started?.close();
  });
}

describe('relays sharing one server', () => {
  let orbit!: Orbit;
  orbitForSuite((started) => (orbit = started));

  it('push each event once: the holder of the lease sends it, the other stands by', async () => {
    const [alice, bob] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, bob);
    const first = await startRelay(orbit);
    const second = await startRelay(orbit);
    try {
      expect([first.leader, second.leader]).toEqual([true, false]);
      expect(await health(second)).toEqual({
        connected: true,
        state: 'standby',
        leader: false,
        pushing: false,
        lastEventId: null,
      });

      expect((await friendAction(orbit.app, alice, 'request', bob)).statusCode).toBe(200);
      await service.waitFor((push) => push.subscriptionId === device.id);
    } finally {
      await second.close();
      await first.close();
    }
    expect(service.pushesFor(device.id)).toHaveLength(1);
  });

  it('hand over when the holder stops: the next one pushes what came meanwhile, once', async () => {
    const [carol, dave, erin] = await signupMembers(orbit.app, 3);
    const device = await addDevice(orbit, service, dave);
    const first = await startRelay(orbit);
    const second = await startRelay(orbit);
    try {
      expect((await friendAction(orbit.app, carol, 'request', dave)).statusCode).toBe(200);
      await service.waitFor((push) => push.subscriptionId === device.id);
      const leading = new Promise<void>((resolve) => second.once('leading', () => resolve()));

      await first.close();
      expect((await friendAction(orbit.app, erin, 'request', dave)).statusCode).toBe(200);

      await leading;
      await service.waitFor((push) => pushesOfRequest(erin, dave).includes(push));
      expect(await health(second)).toMatchObject({ connected: true, leader: true });
    } finally {
      await second.close();
    }
    expect(pushesOfRequest(carol, dave)).toHaveLength(1);
    expect(pushesOfRequest(erin, dave)).toHaveLength(1);
  });

  it('stops pushing once another relay has taken its lease', async () => {
    const [frank, grace] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, grace);
    const relay = await startRelay(orbit);
    try {
      const standby = new Promise<string>((resolve) => relay.once('standby', resolve));
      // Another relay holds the lease from here on (as after this one was cut off for too long).
      await orbit.app.db
        .updateTable('relay_lease')
        .set({ holder: 'another-relay-0001', expires_at: Date.now() + 60_000 })
        .execute();

      expect(await standby).toBe('another relay holds the lease');
      expect(relay.leader).toBe(false);
      expect(await health(relay)).toMatchObject({ connected: true, leader: false });
      const left = new Promise<number | undefined>((resolve) =>
        relay.once('left-to-holder', resolve),
      );
      expect((await friendAction(orbit.app, frank, 'request', grace)).statusCode).toBe(200);
      // The event reached this relay, which left it to the holder and pushed nothing.
      expect(await left).toBe(await latestNotificationId(orbit));
    } finally {
      await relay.close();
      await orbit.app.db.deleteFrom('relay_lease').execute();
    }
    expect(service.pushesFor(device.id)).toEqual([]);
  });
});

describe('the cursor file a relay kept before the server kept the cursor', () => {
  const cursorFileIn = (dataDir: string) => path.join(dataDir, 'relay-cursor.json');
  const exists = (file: string) =>
    fs.access(file).then(
      () => true,
      () => false,
    );

  let orbit!: Orbit;
  orbitForSuite((started) => (orbit = started));

  async function dataDirWithCursor(lastEventId: number): Promise<string> {
    const dir = await tempDir();
    await fs.writeFile(cursorFileIn(dir), JSON.stringify({ lastEventId }));
    return dir;
  }

  it('is where the first relay goes on from while no relay has reported to the server', async () => {
    const [hana, ivan] = await signupMembers(orbit.app, 2);
    const device = await addDevice(orbit, service, ivan);
    const dataDir = await dataDirWithCursor(await latestNotificationId(orbit));
    expect((await friendAction(orbit.app, hana, 'request', ivan)).statusCode).toBe(200);

    const relay = await startRelay(orbit, { dataDir });
    try {
      const push = await service.waitFor((received) => received.subscriptionId === device.id);
      expect((push.payload as PushPayload).actor.username).toBe(hana.username);
      // The server keeps the position now: the file is removed and never read again.
      await expect.poll(() => exists(cursorFileIn(dataDir))).toBe(false);
    } finally {
      await relay.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it('is ignored once the server keeps a cursor', async () => {
    const [jack, kim, lou] = await signupMembers(orbit.app, 3);
    const device = await addDevice(orbit, service, kim);
    const dataDir = await dataDirWithCursor(await latestNotificationId(orbit));
    expect((await friendAction(orbit.app, jack, 'request', kim)).statusCode).toBe(200);
    const first = await startRelay(orbit);
    await service.waitFor((push) => pushesOfRequest(jack, kim).includes(push));
    await first.close();
    expect((await friendAction(orbit.app, lou, 'request', kim)).statusCode).toBe(200);

    const second = await startRelay(orbit, { dataDir });
    try {
      await service.waitFor((push) => pushesOfRequest(lou, kim).includes(push));
      await expect.poll(() => exists(cursorFileIn(dataDir))).toBe(false);
    } finally {
      await second.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    }
    expect(pushesOfRequest(jack, kim)).toHaveLength(1);
    expect(service.pushesFor(device.id)).toHaveLength(2);
  });
});

describe('a first relay with no cursor anywhere', () => {
  it('starts from the newest event: what came before it is not pushed', async () => {
    const orbit = await startOrbit();
    try {
      const [mia, ned, olga] = await signupMembers(orbit.app, 3);
      const device = await addDevice(orbit, service, ned);
      expect((await friendAction(orbit.app, mia, 'request', ned)).statusCode).toBe(200);

      const relay = await startRelay(orbit);
      try {
        expect((await friendAction(orbit.app, olga, 'request', ned)).statusCode).toBe(200);
        await service.waitFor((push) => pushesOfRequest(olga, ned).includes(push));
      } finally {
        await relay.close();
      }
      expect(pushesOfRequest(mia, ned)).toEqual([]);
      expect(service.pushesFor(device.id)).toHaveLength(1);
    } finally {
      await orbit.close();
    }
  });
});
