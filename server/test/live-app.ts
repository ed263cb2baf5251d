/** Listening apps and members' sockets on them: one node, or two nodes of one deployment on Redis. */
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import { beforeEach } from 'vitest';
import {
  type Member,
  REDIS_TEST_URL,
  type TestApp,
  type TestDialect,
  redisSuites,
  signupPair,
  uniqueRedisPrefix,
  useTestApp,
} from './helpers.ts';
import { type QueryCounter, queryCounter } from './queryCounter.ts';
import {
  type ClientOptions,
  connected,
  useListening,
  useSecondNode,
  useSockets,
} from './sockets.ts';

/** Opens a socket on the app at `url` (see useSockets). */
export type OpenSocket = (url: string, options?: ClientOptions) => Socket;

/** A socket signed in as `member` on the app at `origin`, once connected. */
function connectMember(open: OpenSocket, origin: string, member: Member): Promise<Socket> {
  return connected(open(origin, { auth: { token: member.token } }));
}

/**
 * The suite's app listening from before its tests, with sockets disconnected after each test:
 * read `served.url` inside tests, `connectAs(member)` for a member's connected socket.
 */
export function useLiveApp(t: TestApp): {
  openSocket: OpenSocket;
  served: { readonly url: string };
  connectAs: (member: Member) => Promise<Socket>;
} {
  const openSocket = useSockets();
  const served = useListening(t);
  return {
    openSocket,
    served,
    connectAs: (member) => connectMember(openSocket, served.url, member),
  };
}

/**
 * The suite's app listening as useLiveApp's, and a fresh owner and watcher signed up before each
 * test: read `pair.owner` and `pair.watcher` inside tests.
 */
export function useLiveOwnerAndWatcher(dialect: TestDialect): ReturnType<typeof useLiveApp> & {
  t: TestApp;
  pair: { owner: Member; watcher: Member };
} {
  const t = useTestApp(dialect);
  const pair = {} as { owner: Member; watcher: Member };
  beforeEach(async () => {
    [pair.owner, pair.watcher] = await signupPair(t.app);
  });
  return { t, pair, ...useLiveApp(t) };
}

/**
 * The suite's app with every database statement it sends counted (see queryCounter.ts), listening
 * as useLiveApp's: wrap a call in `counter.during(...)`.
 */
export function useCountedLiveApp(dialect: TestDialect): ReturnType<typeof useLiveApp> & {
  t: TestApp;
  counter: QueryCounter;
} {
  const counter = queryCounter();
  const t = useTestApp(dialect, {}, { onQuery: counter.onQuery });
  return { t, counter, ...useLiveApp(t) };
}

/** Two nodes of one deployment on Redis, as a suite of describeTwoNodes sees them. */
export interface TwoNodes {
  dialect: TestDialect;
  /** `t.app` is the first node. */
  t: TestApp;
  nodes: { origin1: string; origin2: string; second: FastifyInstance };
  /** A member's connected socket on the node at `origin` (`nodes.origin1` or `nodes.origin2`). */
  connectTo: (origin: string, member: Member) => Promise<Socket>;
}

/**
 * Suites over two nodes of one deployment on Redis at REDIS_TEST_URL, each run once per dialect:
 * `suite(title, ({ t, nodes, connectTo }) => …)`. The nodes share a Redis prefix of this test
 * file's own (`name`), with settings `env` added, and both listen from before the suite's tests;
 * sockets are disconnected after each test. When Redis is unreachable the suites are skipped as
 * describeWithRedis says, naming `what`.
 */
export async function describeTwoNodes(
  what: string,
  name: string,
  env: Record<string, string> = {},
): Promise<(title: string, body: (two: TwoNodes) => void) => void> {
  const suite = await redisSuites(what);
  const open = useSockets();
  return (title, body) =>
    suite(title, (dialect) => {
      const t = useTestApp(dialect, {
        REDIS_URL: REDIS_TEST_URL,
        REDIS_PREFIX: uniqueRedisPrefix(name, dialect),
        ...env,
      });
      body({
        dialect,
        t,
        nodes: useSecondNode(t),
        connectTo: (origin, member) => connectMember(open, origin, member),
      });
    });
}
