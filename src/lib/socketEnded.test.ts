import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const where = vi.hoisted(() => ({ origin: '' }));
// The tab's API address, pointed at the real socket.io server below.
vi.mock('./apiHost.ts', () => ({
  get API_ORIGIN() {
    return where.origin;
  },
}));

const { connectSocket, disconnectSocket, onSocketEnded } = await import('./socket.ts');

const http = createServer();
const io = new Server(http, { path: '/socket.io', transports: ['websocket'] });

beforeAll(async () => {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  where.origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  disconnectSocket();
  await io.close();
});

describe('a socket the server ends', () => {
  it('tells the tab, so it can ask who is signed in; one the tab closes itself does not', async () => {
    const ended = vi.fn();
    const stop = onSocketEnded(ended);
    const serverSide = new Promise<ServerSocket>((resolve) => io.once('connection', resolve));

    const socket = connectSocket({ id: 'u-ada', username: 'ada' });
    const own = await serverSide;
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    own.disconnect(true);
    await gone;
    expect(ended).toHaveBeenCalledTimes(1);

    const again = new Promise<ServerSocket>((resolve) => io.once('connection', resolve));
    const next = connectSocket({ id: 'u-eve', username: 'eve' });
    await Promise.all([
      again,
      new Promise<void>((resolve) => next.once('connect', () => resolve())),
    ]);
    const closed = new Promise((resolve) => next.once('disconnect', resolve));
    disconnectSocket();
    await closed;
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });
});
