/**
 * Two Orbit nodes on one PostgreSQL database and one Redis, each with its own push-relay process,
 * as `npm start` runs them on two machines: one push per device per event, and when the relay
 * doing the work is killed, the other takes over without losing or repeating a push.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PushPayload, type RelayProgress } from '../../src/contracts/push.ts';
import * as PATHS from '../../src/contracts/endpoints.paths.ts';
import { buildApp } from '../../server/src/app.ts';
import {
  type Member,
  REDIS_TEST_URL,
  type TestApp,
  buildTestApp,
  describeWithPostgres,
  describeWithRedis,
  friendAction,
  signupMembers,
} from '../../server/test/helpers.ts';
import { deviceKey } from '../src/ledger.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
} from './fake-push-service.ts';
import {
  LOCAL_PUSH_SERVICE,
  type Orbit,
  RELAY_SECRET,
  type RelayProcess,
  VAPID_SUBJECT,
  addDevice,
  spawnRelay,
  tempDir,
} from './harness.ts';

const LEASE_SECONDS = 2;

const suite =
  (await describeWithPostgres('the two-node relay tests')) === describe
    ? await describeWithRedis('the two-node relay tests')
    : describe.skip;

suite('two nodes, each with a relay', () => {
  let node1: TestApp;
  let node2: FastifyInstance;
  let nodes: [Orbit, Orbit];
  let service: FakePushService;
  let dataDir = '';
  let caFile = '';

  beforeAll(async () => {
    service = await startFakePushService();
    node1 = await buildTestApp({
      dialect: 'postgres',
      // A prefix of its own keeps other Orbit servers on this Redis out of these relays' way.
      env: {
        RELAY_SECRET,
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: `orbit-test-${randomUUID()}`,
        ...LOCAL_PUSH_SERVICE,
      },
    });
    node2 = await buildApp(node1.config);
    const listen = async (app: FastifyInstance) => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    };
    nodes = [
      Object.assign(node1, { url: await listen(node1.app) }),
      { app: node2, config: node1.config, close: () => node2.close(), url: await listen(node2) },
    ];
    // One data directory for both relays: one VAPID key pair (docs/configuration.md
    // "Push relay settings").
    dataDir = await tempDir();
    caFile = path.join(dataDir, 'push-ca.pem');
    await fs.writeFile(caFile, service.certificate);
  });
  afterAll(async () => {
    await node2.close();
    await node1.close();
    await service.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  interface NodeRelay extends RelayProcess {
    health: string;
  }

  const spawnNodeRelay = async (node: Orbit): Promise<NodeRelay> => {
    const relay = spawnRelay({
      SERVER_URL: node.url,
      RELAY_SECRET,
      DATA_DIR: dataDir,
      VAPID_SUBJECT,
      NODE_EXTRA_CA_CERTS: caFile,
      ...LOCAL_PUSH_SERVICE,
      PUSH_LEASE_SECONDS: String(LEASE_SECONDS),
      RELAY_HEALTH_PORT: '0',
      RELAY_HEALTH_HOST: '127.0.0.1',
      // The lease's turns are logged at debug.
      LOG_LEVEL: 'debug',
      // A push service refusing for a while is retried until it accepts.
      PUSH_RETRY_BASE_MS: '50',
      PUSH_MAX_ATTEMPTS: '1000',
      PUSH_RETRY_MAX_MS: '60000',
    });
    const started = await relay.logged('push is on');
    return Object.assign(relay, { health: started.health as string });
  };

  const roleOf = async (relay: NodeRelay) =>
    (await (await fetch(relay.health)).json()) as { connected: boolean; leader: boolean };

  /** A relay beside each node; resolves once one holds the lease and the other stands by. */
  const startRelays = async (): Promise<{ leader: NodeRelay; standby: NodeRelay }> => {
    const relays = await Promise.all(nodes.map(spawnNodeRelay));
    for (;;) {
      const roles = await Promise.all(relays.map(roleOf));
      if (roles.every((role) => role.connected) && roles.filter((role) => role.leader).length) {
        const leaderAt = roles.findIndex((role) => role.leader);
        await relays[leaderAt]!.logged('this relay is sending the pushes');
        return { leader: relays[leaderAt]!, standby: relays[1 - leaderAt]! };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const running = (relay: RelayProcess) =>
    relay.child.exitCode === null && relay.child.signalCode === null;

  const stop = async (relay: RelayProcess) => {
    relay.child.kill('SIGTERM');
    await relay.exited;
    expect(relay.child.exitCode).toBe(0);
  };

  /** The ids of the events each device got a push for, in the order they came. */
  const eventsAt = (device: FakeSubscription) =>
    service.pushesFor(device.id).map((push) => (push.payload as PushPayload).id);

  const requestId = async (from: Member, to: Member, node: Orbit) => {
    expect((await friendAction(node.app, from, 'request', to)).statusCode).toBe(200);
    const row = await node1.app.db
      .selectFrom('notifications')
      .select('id')
      .where('recipient_id', '=', to.user.id)
      .where('actor_id', '=', from.user.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    return row.id;
  };

  const storedProgress = async (): Promise<RelayProgress | undefined> => {
    const row = await node1.app.db
      .selectFrom('relay_lease')
      .select(['cursor', 'progress'])
      .executeTakeFirst();
    if (row?.cursor == null) return undefined;
    return { cursor: row.cursor, ...(JSON.parse(row.progress) as Omit<RelayProgress, 'cursor'>) };
  };

  it('push every event once to every device, whichever node it was made on', async () => {
    const members = await signupMembers(node1.app, 6);
    const [a, b, c, d, e, f] = members;
    const devices = {
      b: [await addDevice(nodes[0], service, b), await addDevice(nodes[1], service, b)],
      d: [await addDevice(nodes[1], service, d)],
      f: [await addDevice(nodes[0], service, f)],
    };
    const { leader, standby } = await startRelays();
    try {
      const ids = {
        ab: await requestId(a, b, nodes[0]),
        cd: await requestId(c, d, nodes[1]),
        ef: await requestId(e, f, nodes[0]),
        cb: await requestId(c, b, nodes[1]),
        af: await requestId(a, f, nodes[1]),
      };
      const expected = new Map<FakeSubscription, number[]>([
        [devices.b[0]!, [ids.ab, ids.cb]],
        [devices.b[1]!, [ids.ab, ids.cb]],
        [devices.d[0]!, [ids.cd]],
        [devices.f[0]!, [ids.ef, ids.af]],
      ]);
      for (const [device, events] of expected)
        for (const id of events)
          await service.waitFor(
            (push) => push.subscriptionId === device.id && (push.payload as PushPayload).id === id,
          );
      // Nothing can come from either relay once both have stopped.
      await stop(standby);
      await stop(leader);
      for (const [device, events] of expected)
        expect(eventsAt(device).sort((x, y) => x - y)).toEqual(events);
      const key = (await nodes[1].app.inject({ method: 'GET', url: PATHS.pushKey.path })).json<{
        publicKey: string;
      }>().publicKey;
      expect(new Set(service.received.map((push) => push.vapidKey))).toEqual(new Set([key]));
    } finally {
      for (const relay of [leader, standby]) if (running(relay)) await stop(relay);
    }
  });

  it('lose and repeat nothing when the relay doing the work is killed mid-run', async () => {
    const members = await signupMembers(node1.app, 7);
    const [a, b, c, d, e, f, g] = members;
    const bobs = await addDevice(nodes[0], service, b);
    const davePhone = await addDevice(nodes[0], service, d);
    const daveLaptop = await addDevice(nodes[1], service, d);
    const franks = await addDevice(nodes[1], service, f);
    // These two push services refuse (503) until the holder of the lease is dead.
    service.failNext(bobs.id, 503, Infinity);
    service.failNext(daveLaptop.id, 503, Infinity);
    const { leader, standby } = await startRelays();
    try {
      const toBob = await requestId(a, b, nodes[0]);
      const toDave = await requestId(c, d, nodes[1]);
      const toFrank = await requestId(e, f, nodes[0]);
      expect(toBob).toBeLessThan(toDave);
      expect(toDave).toBeLessThan(toFrank);
      await service.waitFor((push) => push.subscriptionId === davePhone.id);
      await service.waitFor((push) => push.subscriptionId === franks.id);
      // The holder has tried the refusing devices and the server keeps what it finished: Frank's
      // event settled above Bob's unsettled one, and Dave's phone done while his laptop is not.
      await expect.poll(() => service.attemptsFor(bobs.id) > 0).toBe(true);
      await expect.poll(() => service.attemptsFor(daveLaptop.id) > 0).toBe(true);
      await expect.poll(storedProgress).toEqual({
        cursor: expect.any(Number) as number,
        settled: [toFrank],
        sent: [{ id: toDave, devices: [deviceKey(davePhone.endpoint)] }],
      });
      expect((await storedProgress())!.cursor).toBeLessThan(toBob);

      leader.child.kill('SIGKILL');
      await leader.exited;
      const killedAt = Date.now();
      service.recover(bobs.id);
      service.recover(daveLaptop.id);

      const took = await standby.logged('took the push lease', 20_000);
      expect((took.time as number) - killedAt).toBeLessThan(LEASE_SECONDS * 1000 + 2_000);
      expect(took.cursor).toBe((await storedProgress())!.cursor);
      await service.waitFor((push) => push.subscriptionId === bobs.id);
      await service.waitFor((push) => push.subscriptionId === daveLaptop.id);
      const later = await requestId(g, f, nodes[1]);
      await service.waitFor(
        (push) => push.subscriptionId === franks.id && (push.payload as PushPayload).id === later,
      );
      await stop(standby);

      expect(eventsAt(bobs)).toEqual([toBob]);
      expect(eventsAt(davePhone)).toEqual([toDave]);
      expect(eventsAt(daveLaptop)).toEqual([toDave]);
      expect(eventsAt(franks)).toEqual([toFrank, later]);
    } finally {
      for (const relay of [leader, standby]) if (running(relay)) await stop(relay);
    }
  });
});
