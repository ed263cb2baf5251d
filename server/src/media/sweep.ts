import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Redis } from 'ioredis';
import type { Db } from '../db/index.ts';
import { referencedKeys } from './repository.ts';
import { MEDIA_PREFIXES, type MediaLog, type MediaStore } from './store.ts';

/**
 * An object that no row names is stray once it is this old. An upload writes its objects a
 * moment before it inserts its row; an insert slower than half of this writes them again
 * (see keepFiles), so the sweep never takes an object a row is about to name.
 */
export const SWEEP_GRACE_MS = 5 * 60_000;
/**
 * Request bodies live in `.incoming` while they arrive and while their picture is made; one whose
 * file was last written this long ago belongs to no upload any more (a process killed mid-upload).
 * A body being received is written with every chunk that arrives, and its picture is made as soon
 * as it is complete, in seconds; nginx ends a client that sends nothing for 60 s
 * (client_body_timeout) and hands Orbit the body whole. So 15 minutes is far beyond the life of
 * any upload, and an upload in progress never loses its file.
 */
export const INCOMING_GRACE_MS = 15 * 60_000;
/** Keys looked up in the database at once. */
const BATCH = 500;

export interface SweepDeps {
  db: Db;
  store: MediaStore;
  /** This node's folder of multipart request bodies being received. */
  incomingDir: string;
}

export interface SweepResult {
  /** Stray objects removed from the store. */
  objects: number;
  /** Abandoned request bodies removed from this node's disk. */
  incoming: number;
}

/**
 * Removes every object under gallery/ and avatars/ that no row names and that is older than
 * SWEEP_GRACE_MS at `now`, and request bodies older than INCOMING_GRACE_MS.
 */
export async function sweepMedia(deps: SweepDeps, now = Date.now()): Promise<SweepResult> {
  return {
    objects: await sweepStore(deps, now),
    incoming: await sweepIncoming(deps.incomingDir, now),
  };
}

/**
 * Removes every object under gallery/ and avatars/ that no row names and that is older than
 * SWEEP_GRACE_MS at `now`: pictures of an upload whose process died before its row, and pictures
 * of a deleted image whose removal failed. Answers how many were removed.
 */
export async function sweepStore(
  deps: Pick<SweepDeps, 'db' | 'store'>,
  now = Date.now(),
): Promise<number> {
  let objects = 0;
  for (const prefix of MEDIA_PREFIXES) {
    let batch: string[] = [];
    const settle = async () => {
      if (batch.length === 0) return;
      const named = await referencedKeys(deps.db, batch);
      const stray = batch.filter((key) => !named.has(key));
      batch = [];
      if (stray.length === 0) return;
      await deps.store.remove(stray);
      objects += stray.length;
    };
    for await (const item of deps.store.list(prefix)) {
      if (now - item.lastModified.getTime() < SWEEP_GRACE_MS) continue;
      batch.push(item.key);
      if (batch.length >= BATCH) await settle();
    }
    await settle();
  }
  return objects;
}

/** Removes the files in `dir` last written INCOMING_GRACE_MS or more before `now`. */
export async function sweepIncoming(dir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat?.isFile() || now - stat.mtimeMs < INCOMING_GRACE_MS) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}

export interface SweeperOptions {
  /** The store's sweep, which one node does per turn. */
  sweep: () => Promise<SweepResult>;
  /**
   * This node's own part (its request bodies, on its own disk): done on every turn of every node,
   * whichever node takes the store's turn. Answers how many files it removed.
   */
  local?: () => Promise<number>;
  intervalMs: number;
  /** With several nodes on one Redis, one of them sweeps per turn. */
  redis?: Redis | undefined;
  /** The Redis key of that turn, named after the deployment (REDIS_PREFIX). */
  lockKey?: string;
  log: MediaLog;
}

type TickOutcome = 'swept' | 'skipped' | 'failed';

export interface MediaSweeper {
  /** One turn: sweeps unless a sweep is running here or another node took this turn. Never throws. */
  tick(): Promise<TickOutcome>;
  /** Sweeps now, then on every turn. */
  start(): void;
  /** Stops the turns and waits for a sweep in progress. */
  stop(): Promise<void>;
}

const SWEEP_LOCK_KEY = 'orbit-media-sweep';

/**
 * Sweeps at start and then periodically, so a sweep begins at least once in every interval (each
 * node's own files on each of its turns):
 * without Redis each node sweeps every interval; with Redis each node tries every half
 * interval and the first to set a lock that lasts 45% of an interval sweeps, so between one
 * and three sweeps run per interval however many nodes there are.
 */
export function createMediaSweeper(options: SweeperOptions): MediaSweeper {
  const { redis, log } = options;
  const period = redis ? options.intervalMs / 2 : options.intervalMs;
  const lockMs = Math.max(1, Math.floor(options.intervalMs * 0.45));
  const lockKey = options.lockKey ?? SWEEP_LOCK_KEY;
  const node = randomBytes(8).toString('hex');
  let running: Promise<TickOutcome> | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function ourTurn(): Promise<boolean> {
    if (!redis) return true;
    try {
      return (await redis.set(lockKey, node, 'PX', lockMs, 'NX')) === 'OK';
    } catch (error) {
      // Two nodes sweeping at once only repeat each other's work; not sweeping would keep strays.
      log.warn({ err: error }, 'media sweep lock unavailable; sweeping anyway');
      return true;
    }
  }

  async function ownFiles(): Promise<number> {
    try {
      return (await options.local?.()) ?? 0;
    } catch (error) {
      log.warn({ err: error }, 'sweep of abandoned uploads failed; the next turn tries again');
      return 0;
    }
  }

  async function turn(): Promise<TickOutcome> {
    // This node's files alongside the store's turn: neither waits for the other.
    const own = ownFiles();
    let outcome: TickOutcome = 'skipped';
    let result: SweepResult = { objects: 0, incoming: 0 };
    try {
      if (await ourTurn()) {
        result = await options.sweep();
        outcome = 'swept';
      }
    } catch (error) {
      log.warn({ err: error }, 'media sweep failed; the next turn tries again');
      outcome = 'failed';
    }
    const removed = { objects: result.objects, incoming: result.incoming + (await own) };
    if (removed.objects > 0 || removed.incoming > 0)
      log.info(removed, 'removed stray pictures and abandoned uploads');
    return outcome;
  }

  const tick = (): Promise<TickOutcome> => {
    if (running) return Promise.resolve('skipped');
    running = turn().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    tick,
    start() {
      void tick();
      timer = setInterval(() => void tick(), period);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
