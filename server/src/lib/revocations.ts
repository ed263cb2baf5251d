/**
 * The revocation channel between nodes (docs/decisions.md "Session cache"): every node publishes
 * the sessions it ended and the members it changed, and hears everyone's; each other node acks a
 * revocation once it dropped it, and the revoking call waits for them. Each node also publishes
 * a heartbeat every HEARTBEAT_MS. It serves its session cache only once it has listened for
 * HEARD_WITHIN_MS (long enough to hear every node that is there), and only while it heard its own
 * heartbeat come back through Redis, and the heartbeat of every node it knows, within
 * HEARD_WITHIN_MS. A heartbeat carries every revocation its node could not publish alone, so
 * hearing a node's heartbeat means having heard all it revoked before it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { REQUEST_COMMAND_TIMEOUT_MS, connectRedis } from './redis.ts';
import { type Revocation, type SessionCache, revocationChannel } from './sessionCache.ts';

/** How often each node says it is there. */
const HEARTBEAT_MS = 1_000;
/** How recently a node's heartbeat must have been heard for the cache to be served. */
export const HEARD_WITHIN_MS = 2_000;

export interface Heartbeats {
  /**
   * Whether this node may trust what it heard: it has listened for the window (long enough to
   * hear every node that is there), and heard itself and every node it knows within it.
   */
  trusted(): boolean;
  /** This node's subscription was confirmed: it hears from now on. */
  subscribed(): void;
  /** A heartbeat of `node` (this one's own, or another's) was heard. */
  heard(node: string): void;
  /** `node` stopped cleanly: it is not waited for. */
  left(node: string): void;
  /** This node's subscription ended: it hears nothing until it is subscribed again. */
  deaf(): void;
  /** Forgets nodes silent for `forgetMs`, and tells `onChange` what time changed. */
  sweep(): void;
}

export interface HeartbeatOptions {
  /** This node's id. */
  self: string;
  /**
   * A node silent this long is forgotten: every entry cached before it fell silent has aged out
   * by then (the cache's TTL).
   */
  forgetMs: number;
  withinMs?: number;
  /** A clock that never goes back. */
  now?: () => number;
  /**
   * Told `true` whenever trust begins, or returns after any lapse however short (what the cache
   * holds may have missed a revocation meanwhile), and `false` once trust is found gone.
   */
  onChange(trusted: boolean): void;
}

/** Who this node has heard from, and when: the proof that Redis delivers every node's word. */
export function createHeartbeats(options: HeartbeatOptions): Heartbeats {
  const within = options.withinMs ?? HEARD_WITHIN_MS;
  const now = options.now ?? (() => performance.now());
  let own = -Infinity;
  const peers = new Map<string, number>();
  // Trusted once `onChange(true)` said so, which is never before `from` (a window after
  // subscribing), and until `until` (a window after the least recent of the last heartbeats).
  let from = Infinity;
  let until = -Infinity;
  let told = false;

  const settle = (change: (at: number) => void) => {
    const at = now();
    const ranOut = at >= until;
    change(at);
    let oldest = own;
    for (const heard of peers.values()) oldest = Math.min(oldest, heard);
    until = oldest + within;
    const trusted = at >= from && at < until;
    if (trusted && (!told || ranOut)) {
      told = true;
      options.onChange(true);
    } else if (!trusted && told) {
      told = false;
      options.onChange(false);
    }
  };

  return {
    trusted() {
      return told && now() < until;
    },
    subscribed() {
      settle((at) => {
        from = at + within;
      });
    },
    heard(node) {
      settle((at) => {
        if (node === options.self) own = at;
        else peers.set(node, at);
      });
    },
    left(node) {
      settle(() => peers.delete(node));
    },
    deaf() {
      settle(() => {
        own = -Infinity;
        from = Infinity;
      });
    },
    sweep() {
      settle((at) => {
        for (const [node, heard] of peers) if (heard <= at - options.forgetMs) peers.delete(node);
      });
    },
  };
}

export interface RevocationChannel {
  /** Whether this node may serve its session cache now (see createHeartbeats). */
  trusted(): boolean;
  /**
   * Tells every node, and resolves once every node listening has said it dropped what it
   * remembered of it, or ACK_WITHIN_MS after Redis took it. When Redis refuses it or does not
   * answer within its command timeout, it resolves then and the revocation goes with this node's
   * next heartbeat. Never rejects.
   */
  publish(revocation: Revocation): Promise<void>;
  /**
   * Resolves once this node has heard its own heartbeat, so that the others know it before it
   * revokes anything; at once when Redis cannot be reached now, and after `ms` at the latest.
   */
  heardItself(ms: number): Promise<void>;
  /** Says goodbye (the others stop waiting for this node) and closes the subscription. */
  close(): Promise<void>;
}

/** The longest a revocation waits for the other nodes to say they dropped it. */
const ACK_WITHIN_MS = REQUEST_COMMAND_TIMEOUT_MS;

export interface RevocationChannelOptions {
  url: string;
  /** REDIS_PREFIX. */
  prefix: string;
  /** The connection revocations and heartbeats are published on: a failure must come fast. */
  publisher: Redis;
  /** The cache revocations reach; served only while `trusted()`. */
  cache: Pick<SessionCache<unknown>, 'dropSessions' | 'dropMembers' | 'clear'>;
  /** SESSION_CACHE_TTL_MS. */
  ttlMs: number;
  log: FastifyBaseLogger;
}

/**
 * What crosses the channel: revocations, alone (numbered, from a node: every other node answers
 * with an ack) or with a node's heartbeat or goodbye; and acks.
 */
interface Message extends Revocation {
  from?: string;
  id?: number;
  beat?: string;
  bye?: string;
  ack?: number;
  to?: string;
  by?: string;
}

/** Revocations this node could not publish, and when the latest of them was made. */
interface Owed {
  sessions: Set<string>;
  members: Set<string>;
  latest: number;
}

/** A revocation waiting for the other nodes' acks. */
interface Awaited {
  ackers: Set<string>;
  expected: number;
  done(): void;
}

export function openRevocationChannel(options: RevocationChannelOptions): RevocationChannel {
  const { cache, log, publisher } = options;
  const channel = revocationChannel(options.prefix);
  const node = randomBytes(8).toString('hex');
  let closing = false;
  let warned = false;
  let listening = false;
  let heardOnce = false;
  let waiting: (() => void)[] = [];
  let numbered = 0;
  const awaited = new Map<number, Awaited>();

  const heartbeats = createHeartbeats({
    self: node,
    forgetMs: options.ttlMs,
    onChange(trusted) {
      // Either way what the cache holds may predate a revocation that was missed.
      cache.clear();
      if (trusted) {
        if (warned) log.info('remembered sessions are served again');
        warned = false;
      } else if (!closing) {
        warned = true;
        log.warn(
          'remembered sessions are not served: Redis has not delivered every node’s heartbeat',
        );
      }
    },
  });

  let owed: Owed | undefined;
  const owe = (sessions: readonly string[], members: readonly string[], at: number) => {
    if (sessions.length === 0 && members.length === 0) return;
    owed ??= { sessions: new Set(), members: new Set(), latest: at };
    owed.latest = Math.max(owed.latest, at);
    for (const id of sessions) owed.sessions.add(id);
    for (const id of members) owed.members.add(id);
  };
  /**
   * Publishes `revocation` with `said` (a heartbeat, a goodbye or a number) and everything this
   * node owes. Answers how many subscribers Redis handed it to, or the error when it did not go,
   * and then owes what it carried.
   */
  const send = async (
    said: Message,
    revocation: Revocation = {},
  ): Promise<{ heard: number } | { error: unknown }> => {
    const carried = owed;
    owed = undefined;
    // Older than the TTL: every entry it concerned has aged out on every node.
    const due = carried && Date.now() - carried.latest < options.ttlMs ? carried : undefined;
    const sessions = [...(due?.sessions ?? []), ...(revocation.sessions ?? [])];
    const members = [...(due?.members ?? []), ...(revocation.members ?? [])];
    const message: Message = {
      ...said,
      ...(sessions.length > 0 ? { sessions } : {}),
      ...(members.length > 0 ? { members } : {}),
    };
    try {
      return { heard: await publisher.publish(channel, JSON.stringify(message)) };
    } catch (error) {
      if (due) owe([...due.sessions], [...due.members], due.latest);
      owe(revocation.sessions ?? [], revocation.members ?? [], Date.now());
      return { error };
    }
  };

  const acked = (message: Message) => {
    const waiter = message.to === node ? awaited.get(Number(message.ack)) : undefined;
    if (!waiter || typeof message.by !== 'string' || message.by === node) return;
    waiter.ackers.add(message.by);
    if (waiter.ackers.size >= waiter.expected) waiter.done();
  };

  const subscriber = connectRedis(options.url, log, 'sessions', { autoResubscribe: false });
  const { client } = subscriber;
  client.on('message', (from: string, text: string) => {
    if (from !== channel) return;
    try {
      const message = JSON.parse(text) as Message;
      if (Array.isArray(message.sessions)) cache.dropSessions(message.sessions.map(String));
      if (Array.isArray(message.members)) cache.dropMembers(message.members.map(String));
      if (typeof message.beat === 'string') heartbeats.heard(message.beat);
      if (typeof message.bye === 'string') heartbeats.left(message.bye);
      if (message.ack !== undefined) acked(message);
      if (message.beat === node) {
        heardOnce = true;
        for (const resolve of waiting) resolve();
        waiting = [];
      }
      // Dropped above, before the ack leaves: the node waiting for it may answer at once.
      if (typeof message.from === 'string' && message.from !== node && message.id !== undefined) {
        const ack: Message = { ack: message.id, to: message.from, by: node };
        publisher.publish(channel, JSON.stringify(ack)).catch(() => undefined);
      }
    } catch {
      cache.clear();
    }
  });
  const deaf = () => {
    listening = false;
    heartbeats.deaf();
  };
  client.on('close', deaf);
  client.on('error', deaf);
  // Nothing waits for it: until the heartbeats say otherwise, sessions are read from the
  // database. The first heartbeat goes out as soon as the subscription is confirmed.
  client.on('ready', () => {
    client.subscribe(channel).then(
      () => {
        listening = true;
        heartbeats.subscribed();
        void send({ beat: node });
      },
      () => deaf(),
    );
  });
  const timer = setInterval(() => {
    heartbeats.sweep();
    void send({ beat: node });
  }, HEARTBEAT_MS);
  timer.unref();

  return {
    trusted: () => heartbeats.trusted(),
    async publish(revocation) {
      numbered += 1;
      const id = numbered;
      let done = () => {};
      const allAcked = new Promise<void>((resolve) => {
        done = resolve;
      });
      // Waiting before it is sent: an ack may come back before `publish` resolves.
      const waiter: Awaited = { ackers: new Set(), expected: Infinity, done };
      awaited.set(id, waiter);
      try {
        const sent = await send({ from: node, id }, revocation);
        if ('error' in sent) {
          log.warn(
            { err: sent.error },
            'could not tell other nodes of a session revocation; it goes with the next heartbeat',
          );
          return;
        }
        // Every subscriber but this node's own is another node that answers.
        waiter.expected = sent.heard - (listening ? 1 : 0);
        if (waiter.ackers.size >= waiter.expected) return;
        const timeout = setTimeout(done, ACK_WITHIN_MS);
        await allAcked;
        clearTimeout(timeout);
      } finally {
        awaited.delete(id);
      }
    },
    heardItself(ms) {
      if (heardOnce || publisher.status !== 'ready') return Promise.resolve();
      return new Promise((resolve) => {
        const timeout = setTimeout(resolve, ms);
        waiting.push(() => {
          clearTimeout(timeout);
          resolve();
        });
      });
    },
    async close() {
      closing = true;
      clearInterval(timer);
      for (const resolve of waiting) resolve();
      waiting = [];
      for (const waiter of awaited.values()) waiter.done();
      if (publisher.status === 'ready') await send({ bye: node });
      await subscriber.close();
      heartbeats.deaf();
    },
  };
}
