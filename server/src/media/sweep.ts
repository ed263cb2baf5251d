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
/** Request bodies still arriving from a slow connection live in `.incoming`; they get an hour. */
export const INCOMING_GRACE_MS = 60 * 60_000;
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
  return { objects, incoming: await sweepIncoming(deps.incomingDir, now) };
}

async function sweepIncoming(dir: string, now: number): Promise<number> {
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
  sweep: () => Promise<SweepResult>;
  intervalMs: number;
  /** With several nodes on one Redis, one of them sweeps per turn. */
  redis?: Redis | undefined;
  /** The Redis key of that turn, named after the deployment (REDIS_PREFIX). */
  lockKey?: string;
  log: MediaLog;
}

export type TickOutcome = 'swept' | 'skipped' | 'failed';

export interface MediaSweeper {
  /** One turn: sweeps unless a sweep is running here or another node took this turn. Never throws. */
  tick(): Promise<TickOutcome>;
  /** Sweeps now, then on every turn. */
  start(): void;
  /** Stops the turns and waits for a sweep in progress. */
  stop(): Promise<void>;
}

export const SWEEP_LOCK_KEY = 'orbit-media-sweep';

/**
 * Sweeps at start and then periodically, so a sweep begins at least once in every interval:
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

  async function turn(): Promise<TickOutcome> {
    try {
      if (!(await ourTurn())) return 'skipped';
      const result = await options.sweep();
      if (result.objects > 0 || result.incoming > 0)
        log.info(result, 'removed stray pictures and abandoned uploads');
      return 'swept';
    } catch (error) {
      log.warn({ err: error }, 'media sweep failed; the next turn tries again');
      return 'failed';
    }
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
