/** Real socket.io clients and listening apps for the realtime and relay tests. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { type ManagerOptions, type Socket, type SocketOptions, io } from 'socket.io-client';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Ack } from '../../src/contracts/realtime.ts';
import { buildApp } from '../src/app.ts';
import type { TestApp } from './helpers.ts';

export type ClientOptions = Partial<ManagerOptions & SocketOptions>;

/** What a socket heard: each event's name and payload, in order. */
export type Seen = [string, unknown][];

/** Every event a socket receives, in order. */
export function record(socket: Socket): Seen {
  const seen: Seen = [];
  socket.onAny((event: string, payload: unknown) => seen.push([event, payload]));
  return seen;
}

/** Asks to watch a gallery or an image; answers the server's acknowledgement. */
export const join = (socket: Socket, event: 'gallery:join' | 'image:join', payload: object) =>
  socket.timeout(5_000).emitWithAck(event, payload) as Promise<Ack>;

/** Listens on a free port of 127.0.0.1; answers the app's origin. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Resolves with the socket once connected; rejects with the connect_error. */
export function connected(socket: Socket): Promise<Socket> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/**
 * Websocket-only clients that do not reconnect (as the app's and the relay's), each disconnected
 * after the test that opened it.
 */
export function useSockets(): (url: string, options?: ClientOptions) => Socket {
  const sockets: Socket[] = [];
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  return (url, options = {}) => {
    const socket = io(url, { transports: ['websocket'], reconnection: false, ...options });
    sockets.push(socket);
    return socket;
  };
}

/**
 * A second app on the same settings (database, Redis) beside `t.app`, both listening: two nodes of
 * one deployment. Read the fields inside tests.
 */
export function useSecondNode(t: TestApp): {
  origin1: string;
  origin2: string;
  second: FastifyInstance;
} {
  const nodes = { origin1: '', origin2: '', second: undefined as unknown as FastifyInstance };
  beforeAll(async () => {
    nodes.second = await buildApp(t.config);
    nodes.origin1 = await listen(t.app);
    nodes.origin2 = await listen(nodes.second);
  });
  afterAll(async () => {
    await nodes.second.close();
  });
  return nodes;
}

/** The suite's app listening on a free port of 127.0.0.1 from before its tests: read `url` inside them. */
export function useListening(t: TestApp): { readonly url: string } {
  let url = '';
  beforeAll(async () => {
    url = await listen(t.app);
  });
  return {
    get url() {
      return url;
    },
  };
}

/** The next `event` a socket receives, or a rejection naming it after `ms`. */
export function nextEvent<T = unknown>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}
