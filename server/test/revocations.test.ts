/**
 * The heartbeats that decide whether a node may serve its session cache (docs/decisions.md
 * "Session cache"), on a clock the test moves: a node trusts what it heard only once it has
 * listened for the window, and only while it heard itself and every node it knows within it.
 */
import { describe, expect, it } from 'vitest';
import { HEARD_WITHIN_MS, createHeartbeats } from '../src/lib/revocations.ts';

const TTL = 30_000;

function heartbeats() {
  let clock = 1_000;
  const told: boolean[] = [];
  const beats = createHeartbeats({
    self: 'me',
    forgetMs: TTL,
    now: () => clock,
    onChange: (trusted) => told.push(trusted),
  });
  return {
    beats,
    told,
    /** Moves the clock on by `ms`. */
    wait: (ms: number) => {
      clock += ms;
    },
  };
}

/** Subscribed, listened for the window hearing itself each second: trusted. */
function listening() {
  const node = heartbeats();
  node.beats.subscribed();
  for (let second = 0; second <= HEARD_WITHIN_MS; second += 1_000) {
    node.beats.heard('me');
    node.wait(1_000);
  }
  node.beats.heard('me');
  return node;
}

describe('heartbeats', () => {
  it('trusts nothing before it is subscribed, and nothing until it has listened for the window', () => {
    const { beats, told, wait } = heartbeats();
    beats.heard('me');
    expect(beats.trusted()).toBe(false);

    beats.subscribed();
    beats.heard('me');
    wait(HEARD_WITHIN_MS - 1);
    beats.heard('me');
    expect(beats.trusted()).toBe(false);
    expect(told).toEqual([]);

    wait(1);
    // Trust begins when it is told (and the cache emptied), on the next heartbeat or sweep.
    expect(beats.trusted()).toBe(false);
    beats.sweep();
    expect(beats.trusted()).toBe(true);
    expect(told).toEqual([true]);
  });

  it('stops trusting once its own heartbeat has not come back within the window', () => {
    const { beats, told, wait } = listening();
    expect(beats.trusted()).toBe(true);

    wait(HEARD_WITHIN_MS - 1);
    expect(beats.trusted()).toBe(true);
    wait(1);
    expect(beats.trusted()).toBe(false);
    beats.sweep();
    expect(told).toEqual([true, false]);

    beats.heard('me');
    expect(beats.trusted()).toBe(true);
    expect(told).toEqual([true, false, true]);
  });

  it('stops trusting while a node it knows is silent, until that node says goodbye', () => {
    const { beats, told, wait } = listening();
    beats.heard('other');
    wait(1_000);
    beats.heard('me');
    wait(1_000);
    beats.heard('me');
    expect(beats.trusted()).toBe(false);
    expect(told).toEqual([true, false]);

    beats.left('other');
    expect(beats.trusted()).toBe(true);
    expect(told).toEqual([true, false, true]);
  });

  it('forgets a node silent for the TTL, and trusts again', () => {
    const { beats, wait } = listening();
    beats.heard('other');
    for (let waited = 1_000; waited < TTL; waited += 1_000) {
      wait(1_000);
      beats.heard('me');
      beats.sweep();
      expect(beats.trusted(), `${waited} ms`).toBe(waited < HEARD_WITHIN_MS);
    }
    wait(1_000);
    beats.heard('me');
    beats.sweep();
    expect(beats.trusted()).toBe(true);
  });

  it('stops trusting at once when its subscription ends, and listens the window again', () => {
    const { beats, told, wait } = listening();
    beats.deaf();
    expect(beats.trusted()).toBe(false);
    expect(told).toEqual([true, false]);

    beats.heard('me');
    expect(beats.trusted()).toBe(false);
    beats.subscribed();
    beats.heard('me');
    expect(beats.trusted()).toBe(false);
    wait(HEARD_WITHIN_MS);
    beats.heard('me');
    expect(beats.trusted()).toBe(true);
    expect(told).toEqual([true, false, true]);
  });

  it('says trust returned after a lapse no sweep saw, so the cache is emptied', () => {
    const { beats, told, wait } = listening();
    wait(HEARD_WITHIN_MS + 500);
    beats.heard('me');
    expect(beats.trusted()).toBe(true);
    expect(told).toEqual([true, true]);
  });
});
