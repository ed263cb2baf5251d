import type { Socket } from 'socket.io-client';
import type { RelayClientToServer, RelayServerToClient } from '../../src/contracts/push.ts';

export type RelaySocket = Socket<RelayServerToClient, RelayClientToServer>;

type Request<E extends keyof RelayClientToServer> = Parameters<RelayClientToServer[E]>[0];

/** The server as the relay's parts ask it: each request is answered by its acknowledgement. */
export interface ServerChannel {
  readonly connected: boolean;
  /** Resolves with the server's answer, unchecked; rejects when none comes within `timeoutMs`. */
  ask<E extends keyof RelayClientToServer>(
    event: E,
    request: Request<E>,
    timeoutMs: number,
  ): Promise<unknown>;
}

export function socketChannel(socket: RelaySocket): ServerChannel {
  return {
    get connected() {
      return socket.connected;
    },
    ask(event, request, timeoutMs) {
      const timed = socket.timeout(timeoutMs) as unknown as {
        emitWithAck(name: typeof event, body: typeof request): Promise<unknown>;
      };
      return timed.emitWithAck(event, request);
    },
  };
}

/** Calls an acknowledgement the server asked for (a missing or odd one is ignored). */
export function acknowledge(ack: unknown): void {
  if (typeof ack === 'function') (ack as () => void)();
}
