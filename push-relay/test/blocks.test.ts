/**
 * Pushes between members who blocked each other (docs/product.md "Blocking"), end to end: a real
 * server, the relay, and the fake push service, which decrypts and verifies every push it takes.
 * While no block stands, each member's friend events reach the other's device; from the block on,
 * nothing either of them does, and nothing left from before, is pushed to the other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushPayload } from '../../src/contracts/push.ts';
import {
  FRIEND_ACTIONS,
  type Member,
  friendAction,
  signupMembers,
} from '../../server/test/factories.ts';
import { forEachDialect } from '../../server/test/helpers.ts';
import { block, unblock } from '../../server/test/safety-helpers.ts';
import type { Relay, RelayEvents } from '../src/running.ts';
import type { FakePushService, FakeSubscription, ReceivedPush } from './fake-push-service.ts';
import { startFakePushService } from './fake-push-service.ts';
import {
  type Orbit,
  RELAY_SECRET,
  addDevice,
  nextSettled,
  startOrbit,
  startTestRelay,
} from './harness.ts';

const payloadOf = (push: ReceivedPush) => push.payload as PushPayload;
const BLOCKED = 'one of the two members blocked the other';

forEachDialect((dialect) => {
  let orbit: Orbit;
  let service: FakePushService;
  let relay: Relay;

  beforeAll(async () => {
    [orbit, service] = await Promise.all([
      startOrbit(RELAY_SECRET, dialect),
      startFakePushService(),
    ]);
    relay = await startTestRelay(orbit, service);
  });
  afterAll(async () => {
    await relay?.close();
    await service?.close();
    await orbit?.close();
  });

  /** The next `count` events the relay settles. */
  const settledEvents = (count: number) =>
    new Promise<RelayEvents['settled'][0][]>((resolve) => {
      const events: RelayEvents['settled'][0][] = [];
      const take = (event: RelayEvents['settled'][0]) => {
        events.push(event);
        if (events.length < count) return;
        relay.off('settled', take);
        resolve(events);
      };
      relay.on('settled', take);
    });

  /** Two members, each with a device and no open tab, so every friend event of theirs pushes. */
  async function pairWithDevices() {
    const [a, b] = await signupMembers(orbit.app, 2);
    const [aDevice, bDevice] = await Promise.all([
      addDevice(orbit, service, a),
      addDevice(orbit, service, b),
    ]);
    return { a, b, aDevice, bDevice };
  }

  /** What `device` received from `actor`, as kinds of push. */
  const pushedFrom = (device: FakeSubscription, actor: Member) =>
    service
      .pushesFor(device.id)
      .map(payloadOf)
      .filter((payload) => payload.actor.id === actor.user.id)
      .map((payload) => payload.kind);

  /** Resolves once `device` has a push of `kind` from `actor`. */
  const arrives = (device: FakeSubscription, actor: Member, kind: PushPayload['kind']) =>
    service.waitFor(
      (push) =>
        push.subscriptionId === device.id &&
        payloadOf(push).actor.id === actor.user.id &&
        payloadOf(push).kind === kind,
    );

  /**
   * A third member asks both to be friends, and both pushes arrive: the relay took every event
   * announced before them by then, so one the pair's calls had made would have arrived too.
   */
  async function barrier(...devices: [Member, FakeSubscription][]) {
    const [third] = await signupMembers(orbit.app, 1);
    for (const [member] of devices)
      expect((await friendAction(orbit.app, third, 'request', member)).statusCode).toBe(200);
    await Promise.all(devices.map(([, device]) => arrives(device, third, 'friend_request')));
  }

  describe('pushes between two members', () => {
    it('reach each of them while no block stands: a request, then its acceptance', async () => {
      const { a, b, aDevice, bDevice } = await pairWithDevices();

      expect((await friendAction(orbit.app, a, 'request', b)).statusCode).toBe(200);
      await arrives(bDevice, a, 'friend_request');
      expect((await friendAction(orbit.app, b, 'accept', a)).statusCode).toBe(200);
      await arrives(aDevice, b, 'friend_accepted');

      expect(pushedFrom(bDevice, a)).toEqual(['friend_request']);
      expect(pushedFrom(aDevice, b)).toEqual(['friend_accepted']);
    });

    it('stop at the block: no friend call of either, either way, pushes to the other', async () => {
      const { a, b, aDevice, bDevice } = await pairWithDevices();
      expect((await friendAction(orbit.app, a, 'request', b)).statusCode).toBe(200);
      expect((await friendAction(orbit.app, b, 'accept', a)).statusCode).toBe(200);
      await arrives(aDevice, b, 'friend_accepted');

      await block(orbit.app, a, b);
      const statuses: string[] = [];
      // Each call, by each of them, twice: a request answered by a request is an acceptance.
      for (let round = 0; round < 2; round += 1)
        for (const [actor, other] of [
          [a, b],
          [b, a],
        ] as const)
          for (const action of FRIEND_ACTIONS)
            statuses.push(
              `${action} ${(await friendAction(orbit.app, actor, action, other)).statusCode}`,
            );
      await barrier([a, aDevice], [b, bDevice]);

      // Each is absent to the other, as a member who does not exist.
      expect(new Set(statuses)).toEqual(new Set(FRIEND_ACTIONS.map((action) => `${action} 404`)));
      expect(pushedFrom(bDevice, a)).toEqual(['friend_request']);
      expect(pushedFrom(aDevice, b)).toEqual(['friend_accepted']);
    });

    it('drop a request the relay had not pushed yet when the block came: it is not caught up', async () => {
      const { a, b, bDevice } = await pairWithDevices();
      const [third] = await signupMembers(orbit.app, 1);
      await relay.close();
      try {
        expect((await friendAction(orbit.app, a, 'request', b)).statusCode).toBe(200);
        expect((await friendAction(orbit.app, third, 'request', b)).statusCode).toBe(200);
        await block(orbit.app, b, a);
      } finally {
        relay = await startTestRelay(orbit, service);
      }

      // The third member's request, made while the relay was away too, is caught up.
      await arrives(bDevice, third, 'friend_request');
      expect(pushedFrom(bDevice, a)).toEqual([]);
    });

    it('drop a push still being retried when the block comes, and keep others’ pushes', async () => {
      const { a, b, bDevice } = await pairWithDevices();
      const [third, fourth] = await signupMembers(orbit.app, 2);
      const fourthDevice = await addDevice(orbit, service, fourth);
      // The push service asks the relay to come back in 2 s; the block comes meanwhile.
      for (const device of [bDevice, fourthDevice])
        service.failNext(device.id, 503, 1, { 'retry-after': '2' });
      const settled = settledEvents(2);

      expect((await friendAction(orbit.app, a, 'request', b)).statusCode).toBe(200);
      expect((await friendAction(orbit.app, third, 'request', fourth)).statusCode).toBe(200);
      await expect.poll(() => service.attemptsFor(bDevice.id)).toBe(1);
      await expect.poll(() => service.attemptsFor(fourthDevice.id)).toBe(1);
      await block(orbit.app, b, a);

      const [first, second] = await settled;
      expect([first!.outcomes, second!.outcomes]).toEqual(
        expect.arrayContaining([
          [{ result: 'dropped', status: undefined, reason: BLOCKED, attempts: 0 }],
          [{ result: 'sent', status: 201, attempts: 2 }],
        ]),
      );
      expect(service.attemptsFor(bDevice.id)).toBe(1);
      expect(pushedFrom(bDevice, a)).toEqual([]);
      expect(pushedFrom(fourthDevice, third)).toEqual(['friend_request']);
    });

    it('drop an event written before the block that reaches the relay after the word', async () => {
      const { a, b, bDevice } = await pairWithDevices();
      // As another node would tell it, ahead of an event this node was about to send: the word
      // covers every event written up to the next few.
      const latest = await orbit.app.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      const heard = new Promise((resolve) => relay.once('pair-blocked', resolve));
      orbit.app.relay.pairBlocked(b.user.id, a.user.id, Number(latest?.id ?? 0) + 5);
      expect(await heard).toEqual([b.user.id, a.user.id]);
      const settled = nextSettled(relay);

      expect((await friendAction(orbit.app, a, 'request', b)).statusCode).toBe(200);

      expect((await settled).outcomes).toEqual([]);
      expect(service.attemptsFor(bDevice.id)).toBe(0);
    });

    it('push again what the two do after the block is lifted', async () => {
      const { a, b, aDevice, bDevice } = await pairWithDevices();
      await block(orbit.app, a, b);
      await unblock(orbit.app, a, b);

      expect((await friendAction(orbit.app, b, 'request', a)).statusCode).toBe(200);
      await arrives(aDevice, b, 'friend_request');
      expect((await friendAction(orbit.app, a, 'accept', b)).statusCode).toBe(200);
      await arrives(bDevice, a, 'friend_accepted');
    });
  });
});
