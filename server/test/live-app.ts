/** Listening apps and members' sockets on them: one node, or two nodes of one deployment on Redis. */
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'socket.io-client';
import {
  type Member,
  REDIS_TEST_URL,
  type TestApp,
  type TestDialect,
  useTestApp,
} from './helpers.ts';
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
 * Two nodes of one deployment on Redis at REDIS_TEST_URL, under a prefix of this test file's own
 * (`name`): `t.app` and `nodes.second`, both listening. `connectTo(nodes.origin2, member)` opens a
 * member's socket on either.
 */
export function useTwoNodes(
  dialect: TestDialect,
  name: string,
  open: OpenSocket,
  env: Record<string, string> = {},
): {
  t: TestApp;
  nodes: { origin1: string; origin2: string; second: FastifyInstance };
  connectTo: (origin: string, member: Member) => Promise<Socket>;
} {
  const t = useTestApp(dialect, {
    REDIS_URL: REDIS_TEST_URL,
    REDIS_PREFIX: `orbit-${name}-${dialect}-${process.pid}`,
    ...env,
  });
  return {
    t,
    nodes: useSecondNode(t),
    connectTo: (origin, member) => connectMember(open, origin, member),
  };
}
