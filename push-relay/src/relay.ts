import { randomUUID } from 'node:crypto';
import { io } from 'socket.io-client';
import {
  RELAY_NAMESPACE,
  type RelayHandshake,
  type RelayProgress,
} from '../../src/contracts/push.ts';
import { DEFAULT_PUSH_ENDPOINT_POLICY } from '../../src/contracts/pushHosts.ts';
import { DEFAULT_BACKOFF, EndpointBackoff } from './backoff.ts';
import { CatchUp } from './catchUp.ts';
import { type RelaySocket, socketChannel } from './channel.ts';
import { systemClock, within } from './clock.ts';
import { followConnection } from './connection.ts';
import { Deliveries } from './deliveries.ts';
import type { DeliveryOutcome } from './deliver.ts';
import { DevicePushes, pushSender } from './devicePush.ts';
import { type HealthServer, serveHealth } from './health.ts';
import { HANDOVER_TIMEOUT_MS, Lease } from './lease.ts';
import { EventLedger } from './ledger.ts';
import { goOnFrom, readLegacyCursor } from './legacyCursor.ts';
import { liveEvents } from './live.ts';
import { createLogger } from './log.ts';
import { ProgressReports } from './progress.ts';
import { Relay, type RelayConfig } from './running.ts';
import { loadVapidKeys } from './vapid.ts';

const DEFAULT_LEASE_MS = 10_000;

/**
 * Connects to the server's `/relay` namespace and turns its friend events into Web Push. Every
 * relay of every node receives every event; only the one holding the lease pushes, going on from
 * the progress the server keeps with the lease (lease.ts has the states). Resolves once the keys
 * are loaded; the connection itself is retried for as long as the relay runs.
 */
export async function startRelay(config: RelayConfig): Promise<Relay> {
  const log = config.logger ?? createLogger('silent');
  const clock = config.clock ?? systemClock;
  const vapid = await loadVapidKeys(config.vapidKeys, config.dataDir);
  if (vapid.source === 'generated')
    log.info({ file: vapid.file }, 'generated a VAPID key pair and saved it');
  const legacy = await readLegacyCursor(config.dataDir, log);
  const relayId = randomUUID();
  const endpoints = config.endpoints ?? DEFAULT_PUSH_ENDPOINT_POLICY;
  if (endpoints.allowLocal)
    log.warn('PUSH_ALLOW_LOCAL_SERVICE is on: pushes may go to this machine (tests only)');
  const sender = pushSender(vapid.keys, { ...config, endpoints });
  const stopping = new AbortController();
  const ledger = new EventLedger(null);
  const socket: RelaySocket = io(`${config.serverUrl}${RELAY_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { secret: config.secret, vapidPublicKey: vapid.keys.publicKey } satisfies RelayHandshake,
    reconnectionDelay: 500,
    reconnectionDelayMax: 10_000,
    forceNew: true,
  });
  const channel = socketChannel(socket);
  let health: HealthServer | undefined;

  const progress = new ProgressReports({
    relayId,
    ledger,
    channel,
    clock,
    log,
    stopping: stopping.signal,
    reported(sent: RelayProgress) {
      void legacy?.retire();
      relay.emit('reported', sent);
    },
    leaseLost: () => lease.lapse('another relay holds the lease'),
  });
  const report = () => progress.report();

  const deliveries = new Deliveries({
    ledger,
    log,
    report,
    pushes: new DevicePushes({
      sender,
      endpoints,
      backoff: new EndpointBackoff({ ...DEFAULT_BACKOFF, ...config.backoff }),
      channel,
      log,
    }),
    settled: (id: number, outcomes: DeliveryOutcome[]) => relay.emit('settled', { id, outcomes }),
  });

  const catchUp = new CatchUp({
    ledger,
    channel,
    clock,
    log,
    stopping: stopping.signal,
    turn: () => lease.turn,
    handle: (event) => void deliveries.handle(event),
    report,
    caughtUp(cursor, held) {
      log.info({ relayId }, 'this relay is sending the pushes');
      relay.emit('caught-up', cursor);
      for (const [raw, ack] of held) live.event(raw, ack);
    },
  });

  const live = liveEvents({
    leading: () => lease.state === 'leader',
    catchUp,
    deliveries,
    leftToHolder: (id) => relay.emit('left-to-holder', id),
    membersGone: (memberIds) => relay.emit('members-gone', memberIds),
    pairBlocked: (memberIds) => relay.emit('pair-blocked', memberIds),
  });
  live.listen(socket);

  /** standby → leader: goes on from the progress the server keeps, after catching up. */
  const leadFrom = async (kept: RelayProgress | null) => {
    const turn = lease.turn;
    catchUp.begin();
    relay.emit('leading');
    await deliveries.resume();
    if (turn !== lease.turn) return;
    goOnFrom(ledger, kept, legacy, log);
    report();
    await catchUp.run(turn);
  };

  const lease: Lease = new Lease({
    relayId,
    leaseMs: config.leaseMs ?? DEFAULT_LEASE_MS,
    channel,
    clock,
    log,
    on: {
      lead: (kept) => void leadFrom(kept),
      standBy(reason, wasLeader) {
        if (wasLeader) catchUp.drop();
        relay.emit('standby', reason);
      },
      lapse(reason) {
        const stopped = deliveries.stop(reason);
        if (stopped > 0)
          log.warn(
            { relayId, events: stopped },
            'stopped the pushes under way; whoever holds the lease next sends what they missed',
          );
      },
    },
  });

  const cancelRetry = followConnection({
    socket,
    serverUrl: config.serverUrl,
    clock,
    log,
    stopping: stopping.signal,
    connected() {
      relay.emit('connected');
      lease.connected();
    },
    disconnected(reason) {
      lease.disconnected();
      relay.emit('disconnected', reason);
    },
    refused: (message) => relay.emit('refused', message),
  });
  const relay = new Relay(vapid.keys.publicKey, relayId, {
    connected: () => socket.connected,
    state: () => lease.state,
    lastEventId: () => ledger.cursor,
    healthUrl: () => health?.url,
    async close() {
      stopping.abort(new Error('the relay is stopping'));
      cancelRetry();
      await lease.handOver(async (held) => {
        deliveries.stop('the relay is stopping');
        await deliveries.ended();
        // Hands over the last progress first, so another relay goes on at once.
        if (!held || !socket.connected) return;
        report();
        await within(clock, progress.sent(), HANDOVER_TIMEOUT_MS);
      });
      socket.disconnect();
      await health?.close();
      sender.agent.destroy();
    },
  });

  if (config.health)
    health = await serveHealth(config.health, relay, () => ({
      connected: socket.connected,
      state: lease.state,
      leader: lease.state === 'leader',
      pushing: lease.state === 'leader' && !catchUp.active,
      lastEventId: ledger.cursor,
    }));
  return relay;
}
