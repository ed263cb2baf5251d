/**
 * Faults: Redis is killed and started again under traffic (part of the fault suite, see
 * faults.crash.test.ts). Two real server processes share one database and a private Redis; while
 * logins and friend requests keep coming, Redis is killed: logins answer 503 at once, friend
 * calls still succeed at once, no process ends. Once Redis is back, logins succeed again and
 * friend events cross from one process to the other again, on the sockets opened before.
 */
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Member, forEachDialect, signupMembers, useTestApp } from './helpers.ts';
import {
  type PrivateRedis,
  describeUnlessMissing,
  privateRedisProblem,
  startPrivateRedis,
} from './private-services.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';
import { connected, useSockets, nextEvent } from './sockets.ts';

/** The promised bound is 1 s; the slack is for a busy test machine, not for a retry. */
const FAST_MS = 1_500;
const CANNOT_COUNT = { error: 'Try again in a moment.' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: unknown;
  ms: number;
}

async function send(origin: string, url: string, body: object, token?: string): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(`${origin}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return {
    status: response.status,
    body: await response.json(),
    ms: performance.now() - started,
  };
}

/** Calls `next()` again and again until stopped, keeping every answer in order. */
function loop(next: () => Promise<Answer>) {
  const answers: Answer[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) answers.push(await next());
  })();
  return {
    answers,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

async function waitUntil(what: string, check: () => Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

const openSocket = useSockets();
const suite = describeUnlessMissing(privateRedisProblem(), 'The Redis fault test');

forEachDialect((dialect) => {
  suite('two server processes on a private Redis', () => {
    const t = useTestApp(dialect);
    let redis: PrivateRedis & { stop(): Promise<void> };
    let nodes: ServerProcess[] = [];
    let a: Member;
    let b: Member;
    let c: Member;

    beforeAll(async () => {
      redis = await startPrivateRedis();
      [a, b, c] = await signupMembers(t.app, 3);
      const env = {
        DATA_DIR: t.config.dataDir,
        STATIC_DIR: path.join(t.config.dataDir, 'no-static-build'),
        REDIS_URL: redis.url,
        AUTH_RATE_LIMIT: '100000',
        ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}),
      };
      nodes = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    });
    afterAll(async () => {
      await Promise.all(nodes.map((node) => node.kill('SIGTERM')));
      await redis?.stop();
    });

    it('answers fast while Redis is down, and delivers across processes again once it is back', async () => {
      const [one, two] = nodes as [ServerProcess, ServerProcess];
      // b listens on process two; a's calls go to process one: their events cross through Redis.
      const socketB = await connected(openSocket(two.origin, { auth: { token: b.token } }));
      const crossed = () =>
        nextEvent(socketB, 'friend:request:created', 10_000).then(() => undefined);

      let arrived = crossed();
      expect(
        (await send(one.origin, '/api/users/friends/request', { toUserId: b.user.id }, a.token))
          .status,
      ).toBe(200);
      await arrived;
      expect(
        (await send(one.origin, '/api/users/friends/cancel', { toUserId: b.user.id }, a.token))
          .status,
      ).toBe(200);

      const login = (origin: string) => () =>
        send(origin, '/api/auth/login', { identifier: c.username, password: c.password });
      let asked = false;
      const friendCalls = () => {
        asked = !asked;
        return send(
          one.origin,
          `/api/users/friends/${asked ? 'request' : 'cancel'}`,
          { toUserId: c.user.id },
          a.token,
        );
      };
      const traffic = [loop(login(one.origin)), loop(login(two.origin)), loop(friendCalls)];
      await sleep(300);
      const before = traffic.map((lane) => lane.answers.length);
      await redis.kill();
      await sleep(1_500);
      const outage = await Promise.all(
        traffic.map(async (lane, index) => {
          const cut = lane.answers.length;
          await lane.stop();
          return lane.answers.slice(before[index], cut);
        }),
      );

      const [loginsOne, loginsTwo, friends] = outage as [Answer[], Answer[], Answer[]];
      for (const answers of [loginsOne, loginsTwo]) {
        // Answers that left before the kill are 200; after it, every one is a quick 503.
        expect(answers.filter((answer) => answer.status === 503).length).toBeGreaterThan(3);
        for (const answer of answers) {
          expect([200, 503]).toContain(answer.status);
          if (answer.status === 503) expect(answer.body).toEqual(CANNOT_COUNT);
          expect(answer.ms).toBeLessThan(FAST_MS);
        }
      }
      expect(friends.length).toBeGreaterThan(3);
      for (const answer of friends) {
        expect(answer.status).toBe(200);
        expect(answer.ms).toBeLessThan(FAST_MS);
      }

      await redis.start();
      for (const node of nodes) {
        await waitUntil(
          'a login on each process',
          async () => (await login(node.origin)()).status === 200,
        );
      }
      // The adapter reads the stream again on its own: the socket opened before the outage hears.
      await waitUntil(
        'the friend event to cross processes again',
        async () => {
          arrived = crossed();
          const answer = await send(
            one.origin,
            '/api/users/friends/request',
            { toUserId: b.user.id },
            a.token,
          );
          expect(answer.status).toBe(200);
          const heard = await arrived.then(
            () => true,
            () => false,
          );
          await send(one.origin, '/api/users/friends/cancel', { toUserId: b.user.id }, a.token);
          return heard;
        },
        30_000,
      );
      expect(socketB.connected).toBe(true);
      for (const node of nodes) {
        expect(node.child.exitCode).toBeNull();
        expect(await (await fetch(`${node.origin}/readyz`)).json()).toMatchObject({
          status: 'ready',
        });
      }
    });
  });
});
