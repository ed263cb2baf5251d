/**
 * When sweeps run: at start and every interval on each node without Redis; with Redis, one node
 * per turn. A sweep that fails is logged and tried again on the next turn, never thrown.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type MediaSweeper,
  type SweepResult,
  type SweeperOptions,
  createMediaSweeper,
} from '../src/media/sweep.ts';
import { REDIS_TEST_URL, describeWithRedis } from './helpers.ts';

const NOTHING: SweepResult = { objects: 0, incoming: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Collects what the sweeper logs. */
function logBook() {
  const warnings: string[] = [];
  return {
    warnings,
    log: {
      info: () => undefined,
      warn: (_details: object, message: string) => {
        warnings.push(message);
      },
    },
  };
}

const running: MediaSweeper[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((sweeper) => sweeper.stop()));
});

function sweeper(options: Partial<SweeperOptions> & Pick<SweeperOptions, 'sweep'>) {
  const made = createMediaSweeper({
    intervalMs: 60_000,
    log: logBook().log,
    ...options,
  });
  running.push(made);
  return made;
}

describe('without Redis', () => {
  it('sweeps at start and then once every interval', async () => {
    let sweeps = 0;
    const node = sweeper({
      intervalMs: 100,
      sweep: () => {
        sweeps += 1;
        return Promise.resolve(NOTHING);
      },
    });

    node.start();
    await sleep(360);

    expect(sweeps).toBeGreaterThanOrEqual(3);
    expect(sweeps).toBeLessThanOrEqual(5);
  });

  it('skips a turn while its own sweep is still running', async () => {
    let finish = () => undefined as void;
    const node = sweeper({
      sweep: () =>
        new Promise<SweepResult>((resolve) => {
          finish = () => resolve(NOTHING);
        }),
    });

    const first = node.tick();
    const second = await node.tick();
    finish();

    expect(second).toBe('skipped');
    expect(await first).toBe('swept');
  });

  it('logs a failed sweep without throwing and sweeps again on the next turn', async () => {
    const book = logBook();
    let calls = 0;
    const node = sweeper({
      log: book.log,
      sweep: () => {
        calls += 1;
        return calls === 1 ? Promise.reject(new Error('bucket gone')) : Promise.resolve(NOTHING);
      },
    });

    expect(await node.tick()).toBe('failed');
    expect(book.warnings).toEqual(['media sweep failed; the next turn tries again']);
    expect(await node.tick()).toBe('swept');
  });

  it('logs a failed sweep of its own files and still sweeps the store', async () => {
    const book = logBook();
    let sweeps = 0;
    const node = sweeper({
      log: book.log,
      local: () => Promise.reject(new Error('disk gone')),
      sweep: () => {
        sweeps += 1;
        return Promise.resolve(NOTHING);
      },
    });

    expect(await node.tick()).toBe('swept');
    expect(sweeps).toBe(1);
    expect(book.warnings).toEqual(['sweep of abandoned uploads failed; the next turn tries again']);
  });

  it('waits for a sweep in progress when stopped', async () => {
    let done = false;
    const node = sweeper({
      sweep: async () => {
        await sleep(50);
        done = true;
        return NOTHING;
      },
    });

    void node.tick();
    await node.stop();

    expect(done).toBe(true);
  });
});

const withRedis = await describeWithRedis('the media sweep lock tests');

withRedis('with Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(REDIS_TEST_URL);
  });
  afterAll(async () => {
    await redis.quit();
  });
  const lockKey = () => `orbit-media-sweep-test-${randomBytes(6).toString('hex')}`;
  const counting = () => {
    const counter = { sweeps: 0, sweep: () => Promise.resolve(NOTHING) };
    counter.sweep = () => {
      counter.sweeps += 1;
      return Promise.resolve(NOTHING);
    };
    return counter;
  };

  it('lets one of two nodes sweep in the same turn', async () => {
    const key = lockKey();
    const a = sweeper({ redis, lockKey: key, sweep: counting().sweep });
    const b = sweeper({ redis, lockKey: key, sweep: counting().sweep });

    const outcomes = await Promise.all([a.tick(), b.tick()]);

    expect(outcomes.sort()).toEqual(['skipped', 'swept']);
  });

  it('sweeps each node’s own files on every turn, whichever node sweeps the store', async () => {
    const key = lockKey();
    const own = [0, 0];
    const [a, b] = [0, 1].map((i) =>
      sweeper({
        redis,
        lockKey: key,
        sweep: counting().sweep,
        local: () => {
          own[i] = (own[i] ?? 0) + 1;
          return Promise.resolve(0);
        },
      }),
    ) as [MediaSweeper, MediaSweeper];

    const outcomes = await Promise.all([a.tick(), b.tick()]);
    expect(await b.tick()).toBe('skipped');

    expect(outcomes.sort()).toEqual(['skipped', 'swept']);
    expect(own).toEqual([1, 2]);
  });

  it('lets another node sweep once the turn’s lock has lapsed', async () => {
    const key = lockKey();
    const a = sweeper({ redis, lockKey: key, intervalMs: 200, sweep: counting().sweep });
    const b = sweeper({ redis, lockKey: key, intervalMs: 200, sweep: counting().sweep });

    expect(await a.tick()).toBe('swept');
    expect(await b.tick()).toBe('skipped');
    await sleep(120);

    expect(await b.tick()).toBe('swept');
  });

  it('keeps three nodes to a few sweeps per interval between them', async () => {
    const key = lockKey();
    const counter = counting();
    for (let i = 0; i < 3; i += 1)
      sweeper({ redis, lockKey: key, intervalMs: 400, sweep: counter.sweep }).start();

    await sleep(2_000);

    // Five intervals: each node alone would sweep 1 + 10 times; the lock allows one sweep per
    // 180 ms (45% of an interval) and guarantees one per interval.
    expect(counter.sweeps).toBeLessThanOrEqual(13);
    expect(counter.sweeps).toBeGreaterThanOrEqual(4);
  });
});
