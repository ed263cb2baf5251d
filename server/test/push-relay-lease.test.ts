/**
 * The push relay lease on `/relay`: one relay at a time holds it, whichever server node it talks
 * to; the holder renews it and keeps its progress with it; the next holder goes on from there.
 */
import { randomUUID } from 'node:crypto';
import type { Socket } from 'socket.io-client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  RelayCursorAnswer,
  RelayLeaseAnswer,
  RelayProgress,
} from '../../src/contracts/push.ts';
import { forEachDialect, p256PublicKey, useTestApp } from './helpers.ts';
import { describeTwoNodes } from './live-app.ts';
import { connected, listen, useSockets } from './sockets.ts';
import { RELAY_SECRET } from './push-endpoints.ts';

const LONG = 30_000;

const twoNodes = await describeTwoNodes('the cross-node lease tests', 'relay-lease', {
  RELAY_SECRET,
});

const openSocket = useSockets();

const connectRelay = (origin: string): Promise<Socket> =>
  connected(
    openSocket(`${origin}/relay`, {
      auth: { secret: RELAY_SECRET, vapidPublicKey: p256PublicKey() },
    }),
  );

const askLease = (relay: Socket, request: unknown) =>
  relay.timeout(5_000).emitWithAck('relay:lease', request) as Promise<RelayLeaseAnswer>;

const lease = (relay: Socket, relayId: string, ttlMs = LONG) => askLease(relay, { relayId, ttlMs });

const sendReport = (relay: Socket, report: unknown) =>
  relay.timeout(5_000).emitWithAck('relay:cursor', report) as Promise<RelayCursorAnswer>;

const report = (relay: Socket, relayId: string, progress: RelayProgress) =>
  sendReport(relay, { relayId, ...progress });

const progress = (cursor: number, settled: number[] = [], sent: RelayProgress['sent'] = []) => ({
  cursor,
  settled,
  sent,
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks for the lease until it is granted (the holder's lease runs out), at most `ms`. */
async function leaseOnceFree(relay: Socket, relayId: string, ms = 10_000) {
  const until = Date.now() + ms;
  for (;;) {
    const answer = await lease(relay, relayId);
    if (answer.granted || Date.now() > until) return answer;
    await pause(Math.min(answer.retryInMs ?? 50, 200));
  }
}

forEachDialect((dialect) => {
  describe('the push relay lease', () => {
    const t = useTestApp(dialect, { RELAY_SECRET });
    let origin = '';
    beforeAll(async () => {
      origin = await listen(t.app);
    });
    afterEach(async () => {
      await t.app.db.deleteFrom('relay_lease').execute();
    });

    const storedCursor = async () =>
      (await t.app.db.selectFrom('relay_lease').select('cursor').executeTakeFirst())?.cursor;

    describe('relay:lease', () => {
      it('grants the lease to the first relay that asks, with no progress yet', async () => {
        const relay = await connectRelay(origin);

        expect(await lease(relay, randomUUID())).toEqual({ granted: true, progress: null });
      });

      it('refuses a second relay while the first holds it, and says when it runs out', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        await lease(one, randomUUID(), 5_000);

        const answer = await lease(two, randomUUID());

        expect(answer).toMatchObject({ granted: false, retryInMs: expect.any(Number) as number });
        expect(answer.granted ? 0 : answer.retryInMs).toBeGreaterThan(3_000);
        expect(answer.granted ? 0 : answer.retryInMs).toBeLessThanOrEqual(5_000);
      });

      it('renews the lease for its holder, so it outlasts its first term', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const holder = randomUUID();
        await lease(one, holder, 300);

        expect(await lease(one, holder, LONG)).toMatchObject({ granted: true });
        await pause(500);

        expect(await lease(two, randomUUID())).toMatchObject({ granted: false });
      });

      it('hands the lease to another relay once it has run out, with the holder’s progress', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const first = randomUUID();
        await lease(one, first, 300);
        expect(await report(one, first, progress(5, [7], [{ id: 6, devices: ['abc'] }]))).toEqual({
          ok: true,
        });

        const answer = await leaseOnceFree(two, randomUUID());

        expect(answer).toEqual({
          granted: true,
          progress: progress(5, [7], [{ id: 6, devices: ['abc'] }]),
        });
        expect(await lease(one, first)).toMatchObject({ granted: false });
      });

      it('gives the lease up at once when its holder asks for 0 ms', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const first = randomUUID();
        await lease(one, first);

        expect(await lease(one, first, 0)).toMatchObject({ granted: true });

        expect(await lease(two, randomUUID())).toMatchObject({ granted: true });
      });

      it('does not let a relay that does not hold the lease give it up', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const first = randomUUID();
        await lease(one, first);

        expect(await lease(two, randomUUID(), 0)).toMatchObject({ granted: false });

        expect(await lease(one, first)).toMatchObject({ granted: true });
        expect(await lease(two, randomUUID())).toMatchObject({ granted: false });
      });

      it('grants it to exactly one of many relays asking at once', async () => {
        const relays = [await connectRelay(origin), await connectRelay(origin)];

        const answers = await Promise.all(
          Array.from({ length: 12 }, (_, index) =>
            lease(relays[index % 2] as Socket, randomUUID()),
          ),
        );

        expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
      });

      it.each([
        ['no request at all', undefined],
        ['no relay id', { ttlMs: 1_000 }],
        ['a relay id too short', { relayId: 'abc', ttlMs: 1_000 }],
        ['a relay id with spaces', { relayId: 'relay one two', ttlMs: 1_000 }],
        ['a negative ttl', { relayId: randomUUID(), ttlMs: -1 }],
        ['a fractional ttl', { relayId: randomUUID(), ttlMs: 1.5 }],
        ['a ttl as text', { relayId: randomUUID(), ttlMs: '1000' }],
        ['a ttl over the limit', { relayId: randomUUID(), ttlMs: 10_000_000 }],
      ])('answers an error for %s and grants nothing', async (_, request) => {
        const relay = await connectRelay(origin);

        expect(await askLease(relay, request)).toEqual({
          granted: false,
          error: expect.any(String) as string,
        });

        expect(relay.connected).toBe(true);
        expect(await lease(relay, randomUUID())).toMatchObject({ granted: true });
      });

      it('survives lease requests without an acknowledgement', async () => {
        const relay = await connectRelay(origin);
        relay.emit('relay:lease', { relayId: randomUUID(), ttlMs: 0 });
        relay.emit('relay:lease', 'nonsense');

        // Answered after the two above were taken in, on the same socket.
        expect(await lease(relay, randomUUID(), 0)).toMatchObject({ granted: true });
        expect(relay.connected).toBe(true);
      });
    });

    describe('relay:cursor', () => {
      it('keeps the holder’s report for the next holder', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const first = randomUUID();
        await lease(one, first);
        await report(one, first, progress(3));

        expect(await report(one, first, progress(9, [11, 12]))).toEqual({ ok: true });
        await lease(one, first, 0);

        expect(await lease(two, randomUUID())).toEqual({
          granted: true,
          progress: progress(9, [11, 12]),
        });
      });

      it('refuses a report from a relay that does not hold the lease and keeps the cursor', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const holder = randomUUID();
        await lease(one, holder);
        await report(one, holder, progress(5));

        expect(await report(two, randomUUID(), progress(9))).toEqual({
          ok: false,
          error: expect.any(String) as string,
          leaseLost: true,
        });

        expect(await storedCursor()).toBe(5);
      });

      it('refuses a report from a former holder once another relay took over', async () => {
        const [one, two] = [await connectRelay(origin), await connectRelay(origin)];
        const first = randomUUID();
        const second = randomUUID();
        await lease(one, first, 300);
        await report(one, first, progress(5));
        await leaseOnceFree(two, second);

        expect(await report(one, first, progress(8))).toMatchObject({
          ok: false,
          leaseLost: true,
        });

        expect(await storedCursor()).toBe(5);
        expect(await report(two, second, progress(6))).toEqual({ ok: true });
      });

      it('refuses a report when no relay has ever held the lease', async () => {
        const relay = await connectRelay(origin);

        expect(await report(relay, randomUUID(), progress(1))).toMatchObject({
          ok: false,
          leaseLost: true,
        });

        expect(await storedCursor()).toBeUndefined();
      });

      it.each([
        ['no report at all', () => undefined],
        ['no relay id', () => progress(4)],
        ['a negative cursor', (relayId: string) => ({ relayId, ...progress(-1) })],
        ['a cursor as text', (relayId: string) => ({ relayId, ...progress(4), cursor: '4' })],
        ['no settled list', (relayId: string) => ({ relayId, cursor: 4, sent: [] })],
        ['a settled id below the cursor', (relayId: string) => ({ relayId, ...progress(4, [3]) })],
        [
          'a device entry at the cursor',
          (relayId: string) => ({ relayId, ...progress(4, [], [{ id: 4, devices: ['a'] }]) }),
        ],
        [
          'a device key that is not base64url',
          (relayId: string) => ({ relayId, ...progress(4, [], [{ id: 5, devices: ['a b'] }]) }),
        ],
        [
          'more settled ids than a report may carry',
          (relayId: string) => ({
            relayId,
            ...progress(
              4,
              Array.from({ length: 2_001 }, (_, index) => index + 5),
            ),
          }),
        ],
      ])('answers an error for %s and keeps nothing', async (_, make) => {
        const relay = await connectRelay(origin);
        const holder = randomUUID();
        await lease(relay, holder);
        await report(relay, holder, progress(2));

        expect(await sendReport(relay, make(holder))).toEqual({
          ok: false,
          error: expect.any(String) as string,
          leaseLost: false,
        });

        expect(relay.connected).toBe(true);
        expect(await storedCursor()).toBe(2);
      });

      it('survives reports without an acknowledgement', async () => {
        const relay = await connectRelay(origin);
        const holder = randomUUID();
        await lease(relay, holder);
        relay.emit('relay:cursor', { relayId: holder, ...progress(7) });
        relay.emit('relay:cursor', 'nonsense');

        await expect.poll(storedCursor).toBe(7);
        expect(relay.connected).toBe(true);
      });
    });
  });
});

twoNodes('the lease across two server nodes on one database', ({ nodes }) => {
  it('is held by one relay, whichever node each relay talks to', async () => {
    const [one, two] = [await connectRelay(nodes.origin1), await connectRelay(nodes.origin2)];
    const first = randomUUID();
    expect(await lease(one, first)).toMatchObject({ granted: true });

    expect(await lease(two, randomUUID())).toMatchObject({ granted: false });

    await report(one, first, progress(12));
    await lease(one, first, 0);
    expect(await lease(two, randomUUID())).toEqual({ granted: true, progress: progress(12) });
  });
});
