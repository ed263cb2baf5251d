/**
 * The lease's states driven by a fake server and a fake clock: which answers and which passing
 * of time move a relay between standby, leader and handing-over. (Real servers: lease.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { RelayProgress } from '../../src/contracts/push.ts';
import { CATCH_UP, CatchUp } from '../src/catchUp.ts';
import { Lease } from '../src/lease.ts';
import { EventLedger } from '../src/ledger.ts';
import { createLogger } from '../src/log.ts';
import { FakeClock, FakeServer, settle } from './fake-clock.ts';

const LEASE_MS = 3_000;
const log = createLogger('silent');

function leaseOnFakes() {
  const clock = new FakeClock();
  const server = new FakeServer(clock);
  const seen: string[] = [];
  const lease = new Lease({
    relayId: '00000000-0000-4000-8000-000000000001',
    leaseMs: LEASE_MS,
    channel: server,
    clock,
    log,
    on: {
      lead: (progress) => seen.push(`lead from ${progress?.cursor ?? 'nothing'}`),
      standBy: (reason) => seen.push(`standby: ${reason}`),
      lapse: (reason) => seen.push(`lapse: ${reason}`),
    },
  });
  return { clock, server, lease, seen };
}

const granted = (progress: RelayProgress | null = null) => ({ granted: true, progress });
const takenElsewhere = (retryInMs: number) => ({ granted: false, retryInMs });

describe('the lease as a state machine', () => {
  it('goes from standby to leader when the server grants it, and renews every third of its length', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = () => granted({ cursor: 41, settled: [], sent: [] });
    expect(lease.state).toBe('standby');
    lease.connected();
    await settle();
    expect(lease.state).toBe('leader');
    expect(seen).toEqual(['lead from 41']);
    expect(server.requests('relay:lease')).toHaveLength(1);

    await clock.advance(LEASE_MS / 3 - 1);
    expect(server.requests('relay:lease')).toHaveLength(1);
    await clock.advance(1);
    expect(server.requests('relay:lease')).toHaveLength(2);
    await clock.advance(LEASE_MS * 3);
    // Renewed all along: still the leader, entered once.
    expect(lease.state).toBe('leader');
    expect(seen).toEqual(['lead from 41']);
  });

  it('stands by while another relay holds it, and asks again just after that lease would run out', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = () => takenElsewhere(2_000);
    lease.connected();
    await settle();
    expect(lease.state).toBe('standby');
    expect(seen).toEqual(['standby: another relay holds the lease']);

    await clock.advance(2_049);
    expect(server.requests('relay:lease')).toHaveLength(1);
    server.answer = () => granted();
    await clock.advance(1);
    expect(server.requests('relay:lease')).toHaveLength(2);
    expect(lease.state).toBe('leader');
    // Standing by is said once, not at every refusal.
    expect(seen).toEqual(['standby: another relay holds the lease', 'lead from nothing']);
  });

  it('lapses when the lease runs out before the server answers a renewal', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = () => granted();
    lease.connected();
    await settle();
    server.answer = () => undefined;
    await clock.advance(LEASE_MS - 1);
    expect(lease.state).toBe('leader');
    await clock.advance(1);
    expect(lease.state).toBe('standby');
    expect(lease.held).toBe(false);
    const ranOut = 'the lease ran out before it could be renewed';
    expect(seen).toEqual(['lead from nothing', `standby: ${ranOut}`, `lapse: ${ranOut}`]);
  });

  it('stops pushing new events at once when a renewal fails, but lapses only when another relay holds it', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = () => granted();
    lease.connected();
    await settle();
    server.answer = () => ({ granted: false, error: 'the database is unreachable' });
    await clock.advance(LEASE_MS / 3);
    expect(lease.state).toBe('standby');
    expect(lease.held).toBe(true);
    expect(seen.at(-1)).toBe('standby: could not renew the lease: the database is unreachable');

    server.answer = () => takenElsewhere(1_000);
    await clock.advance(LEASE_MS / 3);
    expect(lease.held).toBe(false);
    expect(seen.at(-1)).toBe('lapse: another relay holds the lease');
  });

  it('stands by when the connection drops, starts a new turn, and asks nothing until it is back', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = () => granted();
    lease.connected();
    await settle();
    const turn = lease.turn;
    server.connected = false;
    lease.disconnected();
    expect(lease.state).toBe('standby');
    expect(lease.turn).toBeGreaterThan(turn);
    expect(seen.at(-1)).toBe('standby: disconnected from the server');
    await clock.advance(LEASE_MS / 3);
    expect(server.requests('relay:lease')).toHaveLength(1);

    server.connected = true;
    lease.connected();
    await settle();
    expect(lease.state).toBe('leader');
    expect(server.requests('relay:lease')).toHaveLength(2);
  });

  it('hands over: finishes its work, gives the lease up, and never asks for it again', async () => {
    const { clock, server, lease, seen } = leaseOnFakes();
    server.answer = ({ event }) => (event === 'relay:lease' ? granted() : undefined);
    lease.connected();
    await settle();
    const order: string[] = [];
    const handingOver = lease.handOver(async (held) => {
      order.push(`finish in ${lease.state}, held: ${held}`);
      await clock.sleep(100);
    });
    await clock.advance(100);
    await handingOver;
    expect(order).toEqual(['finish in handing-over, held: true']);
    expect(lease.state).toBe('handing-over');
    expect(server.requests('relay:lease').at(-1)).toMatchObject({ ttlMs: 0 });
    expect(seen.at(-1)).toBe('standby: the relay is stopping');
    const asked = server.asked.length;
    await clock.advance(LEASE_MS * 10);
    expect(server.asked).toHaveLength(asked);
  });

  it('does not give up a lease it does not hold', async () => {
    const { server, lease } = leaseOnFakes();
    server.answer = () => takenElsewhere(5_000);
    lease.connected();
    await settle();
    const held: boolean[] = [];
    await lease.handOver((wasHeld) => Promise.resolve(void held.push(wasHeld)));
    expect(held).toEqual([false]);
    expect(server.requests('relay:lease').map((request) => request.ttlMs)).toEqual([LEASE_MS]);
  });
});

describe('catch-up on the fake clock', () => {
  function catchUpOnFakes(cursor: number | null) {
    const clock = new FakeClock();
    const server = new FakeServer(clock);
    const ledger = new EventLedger(cursor);
    let turn = 1;
    const done: (number | null)[] = [];
    const catchUp = new CatchUp({
      ledger,
      channel: server,
      clock,
      log,
      stopping: new AbortController().signal,
      turn: () => turn,
      handle: () => {},
      report: () => {},
      caughtUp: (at) => done.push(at),
    });
    return { clock, server, ledger, catchUp, done, nextTurn: () => turn++ };
  }

  it('on a first start goes on from the server’s newest event', async () => {
    const { server, catchUp, done } = catchUpOnFakes(null);
    server.answer = () => ({ events: [], latest: 77 });
    catchUp.begin();
    await catchUp.run(1);
    expect(server.requests('relay:catch-up')).toEqual([{ after: null, limit: CATCH_UP.page }]);
    expect(done).toEqual([77]);
    expect(catchUp.active).toBe(false);
  });

  it('asks again after a failed page, once the retry time has passed, until it is answered', async () => {
    const { clock, server, catchUp, done } = catchUpOnFakes(10);
    server.answer = () => ({ events: [], latest: 0, error: 'the database is unreachable' });
    catchUp.begin();
    const running = catchUp.run(1);
    await clock.advance(CATCH_UP.retryMs - 1);
    expect(server.requests('relay:catch-up')).toHaveLength(1);
    server.answer = () => ({ events: [], latest: 10 });
    await clock.advance(1);
    await running;
    expect(server.requests('relay:catch-up')).toHaveLength(2);
    expect(done).toEqual([10]);
  });

  it('stops when the turn it began in is over (the lease went meanwhile)', async () => {
    const { clock, server, catchUp, done, nextTurn } = catchUpOnFakes(10);
    catchUp.begin();
    const running = catchUp.run(1);
    nextTurn();
    await clock.advance(CATCH_UP.timeoutMs);
    await running;
    expect(server.requests('relay:catch-up')).toHaveLength(1);
    expect(done).toEqual([]);
  });
});
