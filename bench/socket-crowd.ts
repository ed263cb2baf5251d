/**
 * A load generator for bench/friend-event-latency.ts, in a process of its own: opens the sockets
 * it is told to (each a member's authenticated socket, joined to presence as the app does) and
 * keeps them open until told to stop, so the measuring process shares no event loop with them.
 * Run by the bench with `child_process.fork`; not a bench of its own.
 */
import type { Socket } from 'socket.io-client';
import { joinPresence, openSocket } from './common.ts';

/** What the bench sends: every socket's node and member. */
export interface CrowdOrders {
  sockets: { origin: string; token: string; userId: string }[];
}

/** What the generator answers. */
export type CrowdReport = { ready: number; seconds: number } | { error: string };

const BATCH = 100;
const sockets: Socket[] = [];

async function open(orders: CrowdOrders): Promise<void> {
  const started = performance.now();
  for (let i = 0; i < orders.sockets.length; i += BATCH) {
    await Promise.all(
      orders.sockets.slice(i, i + BATCH).map(async ({ origin, token, userId }) => {
        const socket = await openSocket(origin, token, (opened) => sockets.push(opened));
        await joinPresence(socket, { userId });
      }),
    );
  }
  const report: CrowdReport = {
    ready: sockets.length,
    seconds: (performance.now() - started) / 1000,
  };
  process.send?.(report);
}

process.on('message', (message: CrowdOrders | 'stop') => {
  if (message === 'stop') {
    for (const socket of sockets) socket.disconnect();
    process.exit(0);
  }
  open(message).catch((error: unknown) => {
    const report: CrowdReport = { error: String(error) };
    process.send?.(report);
  });
});
