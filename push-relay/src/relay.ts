import { EventEmitter } from 'node:events';
import https from 'node:https';
import tls from 'node:tls';
import { type Socket, io } from 'socket.io-client';
import {
  PUSH_TTL_SECONDS,
  RELAY_NAMESPACE,
  type RelayCatchUpAnswer,
  type RelayClientToServer,
  type RelayEvent,
  type RelayServerToClient,
} from '../../src/contracts/push.ts';
import type { RetryPolicy } from './config.ts';
import { CursorFile, EventLedger } from './cursor.ts';
import {
  type DeliveryOutcome,
  Limiter,
  type PushSender,
  VapidAuthorization,
  deliver,
  pause,
} from './deliver.ts';
import { distinctDevices, parseEvent, serviceOf } from './events.ts';
import { type HealthServer, startHealthServer } from './health.ts';
import { type Logger, createLogger } from './log.ts';
import { type VapidKeys, loadVapidKeys } from './vapid.ts';

export interface RelayConfig {
  serverUrl: string;
  secret: string;
  dataDir: string;
  /** Without keys the relay keeps its own pair in `dataDir`. */
  vapidKeys?: VapidKeys | undefined;
  vapidSubject: string;
  health?: { port: number; host: string } | undefined;
  ttlSeconds?: number;
  concurrency?: number;
  retry?: Partial<RetryPolicy>;
  logger?: Logger;
  /** A certificate authority to trust for push services besides the usual ones (tests). */
  trustedCa?: string | Buffer;
}

export interface RelayEvents {
  connected: [];
  disconnected: [reason: string];
  /** The server refused the handshake (a wrong RELAY_SECRET). */
  refused: [message: string];
  /** Catch-up after a connect is answered; live events flow from here on. */
  'caught-up': [cursor: number | null];
  settled: [result: { id: number; outcomes: DeliveryOutcome[] }];
  /** close() finished: nothing is under way and the cursor is on disk. */
  closed: [];
}

interface RelayState {
  connected(): boolean;
  lastEventId(): number | null;
  healthUrl(): string | undefined;
  close(): Promise<void>;
}

/** A running relay: its state, its events, and how to stop it. */
export class Relay extends EventEmitter<RelayEvents> {
  readonly #state: RelayState;

  constructor(
    readonly vapidPublicKey: string,
    state: RelayState,
  ) {
    super();
    this.#state = state;
  }

  get connected(): boolean {
    return this.#state.connected();
  }

  /** The cursor: every event up to this id is handled. */
  get lastEventId(): number | null {
    return this.#state.lastEventId();
  }

  /** The health endpoint's address, when one is configured. */
  get healthUrl(): string | undefined {
    return this.#state.healthUrl();
  }

  /** Stops: deliveries under way end, their events stay unacknowledged and come back. */
  async close(): Promise<void> {
    await this.#state.close();
    this.emit('closed');
  }
}

const CATCH_UP_PAGE = 100;
const CATCH_UP_TIMEOUT_MS = 30_000;
const CATCH_UP_RETRY_MS = 5_000;
const GONE_ACK_TIMEOUT_MS = 10_000;
const PUSH_REQUEST_TIMEOUT_MS = 15_000;
/** After a refused handshake, how long before asking again (the secret may be fixed meanwhile). */
const REFUSED_RETRY_MS = 30_000;

type RelaySocket = Socket<RelayServerToClient, RelayClientToServer>;

function pushAgent(concurrency: number, trustedCa: string | Buffer | undefined): https.Agent {
  return new https.Agent({
    keepAlive: true,
    maxSockets: concurrency,
    ...(trustedCa ? { ca: [...tls.rootCertificates, trustedCa.toString()] } : {}),
  });
}

/** Calls an acknowledgement the server asked for (a missing or odd one is ignored). */
function acknowledge(ack: unknown): void {
  if (typeof ack === 'function') (ack as () => void)();
}

/**
 * Connects to the server's `/relay` namespace and turns its friend events into Web Push, catching
 * up from the stored cursor on every (re)connect. Resolves once the keys and cursor are loaded;
 * the connection itself is retried for as long as the relay runs.
 */
export async function startRelay(config: RelayConfig): Promise<Relay> {
  const log = config.logger ?? createLogger('silent');
  const vapid = await loadVapidKeys(config.vapidKeys, config.dataDir);
  if (vapid.source === 'generated')
    log.info({ file: vapid.file }, 'generated a VAPID key pair and saved it');
  const cursorFile = new CursorFile(config.dataDir);
  const ledger = new EventLedger(await cursorFile.read());
  const concurrency = config.concurrency ?? 50;
  const sender: PushSender = {
    vapid: new VapidAuthorization({ ...vapid.keys, subject: config.vapidSubject }),
    ttlSeconds: config.ttlSeconds ?? PUSH_TTL_SECONDS,
    agent: pushAgent(concurrency, config.trustedCa),
    limiter: new Limiter(concurrency),
    retry: { maxAttempts: 5, baseMs: 1_000, budgetMs: 5 * 60_000, ...config.retry },
    timeoutMs: PUSH_REQUEST_TIMEOUT_MS,
  };
  const stopping = new AbortController();
  const inFlight = new Map<number, Promise<boolean>>();
  let catchingUp = false;
  let buffered: [unknown, unknown][] = [];
  let connection = 0;
  let refusedTimer: NodeJS.Timeout | undefined;
  let reachable = true;

  let health: HealthServer | undefined;
  const relay = new Relay(vapid.keys.publicKey, {
    connected: () => socket.connected,
    lastEventId: () => ledger.cursor,
    healthUrl: () => health?.url,
    async close() {
      stopping.abort(new Error('the relay is stopping'));
      clearTimeout(refusedTimer);
      socket.disconnect();
      await Promise.allSettled(inFlight.values());
      await cursorFile.flush();
      await health?.close();
      sender.agent.destroy();
    },
  });

  const socket: RelaySocket = io(`${config.serverUrl}${RELAY_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { secret: config.secret, vapidPublicKey: vapid.keys.publicKey },
    reconnectionDelay: 500,
    reconnectionDelayMax: 10_000,
    forceNew: true,
  });

  const settle = (id: number, outcomes: DeliveryOutcome[]) => {
    if (ledger.settle(id) && ledger.cursor !== null)
      cursorFile
        .save(ledger.cursor)
        .catch((error: unknown) => log.error({ err: error }, 'could not save the relay cursor'));
    relay.emit('settled', { id, outcomes });
  };

  const reportGone = async (endpoint: string) => {
    const service = serviceOf(endpoint);
    try {
      // The server acknowledges with nothing, or with { error } when it could not delete.
      const answer = (await socket
        .timeout(GONE_ACK_TIMEOUT_MS)
        .emitWithAck('relay:subscription-gone', { endpoint })) as { error?: string } | undefined;
      if (answer?.error)
        log.warn({ service, problem: answer.error }, 'the server kept a gone subscription');
    } catch {
      log.warn({ service }, 'the server did not confirm a gone subscription');
    }
  };

  const pushToDevice = async (
    event: RelayEvent,
    device: RelayEvent['subscriptions'][number],
  ): Promise<DeliveryOutcome> => {
    const id = event.payload.id;
    const service = serviceOf(device.endpoint);
    if (!device.endpoint.startsWith('https://')) {
      log.warn({ id, service }, 'push dropped: not an https: endpoint');
      return {
        result: 'dropped',
        status: undefined,
        reason: 'not an https: endpoint',
        attempts: 0,
      };
    }
    const outcome = await deliver(sender, device, event.payload, stopping.signal, (retry) =>
      log.info({ id, service, ...retry }, 'push not accepted yet; retrying'),
    );
    if (outcome.result === 'sent') log.debug({ id, service }, 'push sent');
    else if (outcome.result === 'gone') {
      log.info({ id, service, status: outcome.status }, 'subscription gone; telling the server');
      await reportGone(device.endpoint);
    } else log.warn({ id, service, ...outcome }, `push ${outcome.result}`);
    return outcome;
  };

  /**
   * Starts handling an event unless it is handled or under way. Resolves true once it is settled,
   * false when the relay stopped first (then it stays unacknowledged and comes back).
   */
  const handle = (raw: unknown): Promise<boolean> => {
    const parsed = parseEvent(raw);
    if (!parsed.ok) {
      log.error({ id: parsed.id, problem: parsed.problem }, 'dropped an event that does not fit');
      if (parsed.id !== undefined && !ledger.has(parsed.id)) {
        ledger.begin(parsed.id);
        settle(parsed.id, []);
      }
      return Promise.resolve(true);
    }
    const { event } = parsed;
    const id = event.payload.id;
    if (ledger.has(id)) return inFlight.get(id) ?? Promise.resolve(true);
    ledger.begin(id);
    const work = Promise.all(distinctDevices(event).map((device) => pushToDevice(event, device)))
      .then(
        (outcomes) => {
          settle(id, outcomes);
          return true;
        },
        () => false,
      )
      .finally(() => inFlight.delete(id));
    inFlight.set(id, work);
    return work;
  };

  const onLiveEvent = (raw: unknown, ack: unknown) => {
    if (catchingUp) buffered.push([raw, ack]);
    else
      void handle(raw).then((settled) => {
        if (settled) acknowledge(ack);
      });
  };

  /** One page of catch-up; throws when the server does not answer or answers an error. */
  const askCatchUp = async (after: number | null) => {
    const answer = (await socket
      .timeout(CATCH_UP_TIMEOUT_MS)
      .emitWithAck('relay:catch-up', { after, limit: CATCH_UP_PAGE })) as RelayCatchUpAnswer;
    if (answer.error) throw new Error(answer.error);
    return answer;
  };

  /**
   * Everything after the cursor, a page at a time. Pages are not held up by slow deliveries (a
   * push service asking to retry later): the cursor waits for them, the next page does not.
   */
  const catchUpPages = async (current: number) => {
    let after = ledger.cursor;
    while (current === connection) {
      const answer = await askCatchUp(after);
      if (current !== connection) return;
      if (after === null) {
        log.info({ latest: answer.latest }, 'first start: pushing events from now on');
        ledger.reset(answer.latest);
        await cursorFile.save(answer.latest);
        return;
      }
      if (answer.latest < after) {
        log.warn(
          { cursor: after, latest: answer.latest },
          'the server has fewer events than the cursor (a new database?); starting from its newest',
        );
        ledger.startOver(answer.latest);
        await cursorFile.save(answer.latest);
        return;
      }
      const events = [...answer.events].sort((a, b) => a.payload.id - b.payload.id);
      if (events.length > 0) log.info({ after, count: events.length }, 'catching up');
      for (const event of events) void handle(event);
      const last = events.at(-1)?.payload.id;
      if (events.length < CATCH_UP_PAGE || last === undefined) return;
      after = last;
    }
  };

  /** Catch-up on every connect, retried while connected; live events wait until it is done. */
  const catchUp = async (current: number) => {
    catchingUp = true;
    for (;;) {
      try {
        await catchUpPages(current);
        break;
      } catch (error) {
        if (current !== connection || stopping.signal.aborted) return;
        log.warn({ err: error }, `catch-up failed; asking again in ${CATCH_UP_RETRY_MS / 1000} s`);
        await pause(CATCH_UP_RETRY_MS, stopping.signal).catch(() => undefined);
      }
    }
    if (current !== connection) return;
    catchingUp = false;
    log.info({ cursor: ledger.cursor }, 'caught up');
    relay.emit('caught-up', ledger.cursor);
    const waiting = buffered;
    buffered = [];
    for (const [raw, ack] of waiting) onLiveEvent(raw, ack);
  };

  socket.on('connect', () => {
    connection++;
    reachable = true;
    buffered = [];
    catchingUp = true;
    log.info({ server: config.serverUrl, cursor: ledger.cursor }, 'connected to the server');
    relay.emit('connected');
    void catchUp(connection);
  });
  socket.on('disconnect', (reason) => {
    connection++;
    const write = reason === 'io client disconnect' ? log.info : log.warn;
    write({ server: config.serverUrl, reason }, 'disconnected from the server');
    relay.emit('disconnected', reason);
    if (reason === 'io server disconnect' && !stopping.signal.aborted) socket.connect();
  });
  socket.on('connect_error', (error) => {
    if (socket.active) {
      // Once per outage at warn; every further attempt only at debug.
      const write = reachable ? log.warn : log.debug;
      reachable = false;
      write({ server: config.serverUrl, err: error }, 'cannot reach the server; retrying');
      return;
    }
    log.error(
      { server: config.serverUrl, err: error },
      `the server refused the relay (check RELAY_SECRET); trying again in ${REFUSED_RETRY_MS / 1000} s`,
    );
    relay.emit('refused', error.message);
    refusedTimer = setTimeout(() => socket.connect(), REFUSED_RETRY_MS);
  });
  socket.on('relay:event', onLiveEvent);

  if (config.health)
    health = await startHealthServer(config.health, () => ({
      connected: socket.connected,
      lastEventId: ledger.cursor,
    }));
  return relay;
}
