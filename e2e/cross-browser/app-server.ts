import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { appEnv } from '../appEnv.ts';
import { freePort } from '../ports.ts';

export { freePort };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The browser's way to the server: a TCP relay on the page's origin. Cutting it drops every open
 * connection (the socket.io websocket included) and refuses new ones, as a lost network does, for
 * the page and its service worker alike, which neither Firefox's per-tab offline mode nor WebKit's
 * driver can do. A network lost on the way (a train in a tunnel) may leave the websocket looking
 * open until its next heartbeat: `keepWebSockets` cuts all but it, so the page has not yet heard
 * that it is offline when the member next acts.
 */
interface Network {
  port: number;
  online: boolean;
  cut: (options?: { keepWebSockets?: boolean }) => void;
  restore: () => void;
  close: () => Promise<void>;
}

interface Connection {
  client: net.Socket;
  upstream: net.Socket;
  websocket: boolean;
}

async function relay(target: () => number): Promise<Network> {
  const open = new Set<Connection>();
  const state = { online: true };
  const drop = ({ client, upstream }: Connection) => {
    client.destroy();
    upstream.destroy();
  };
  const server = net.createServer((client) => {
    if (!state.online) {
      client.destroy();
      return;
    }
    const connection = { client, upstream: net.connect(target(), '127.0.0.1'), websocket: false };
    open.add(connection);
    // A websocket's connection opens with its upgrade request.
    client.once('data', (chunk: Buffer) => {
      connection.websocket = /\r\nupgrade:\s*websocket\r\n/i.test(chunk.toString('latin1'));
    });
    for (const socket of [client, connection.upstream]) {
      socket.on('close', () => {
        if (connection.client.destroyed && connection.upstream.destroyed) open.delete(connection);
      });
      socket.on('error', () => drop(connection));
    }
    client.pipe(connection.upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get online() {
      return state.online;
    },
    cut({ keepWebSockets = false } = {}) {
      state.online = false;
      for (const connection of open) if (!keepWebSockets || !connection.websocket) drop(connection);
    },
    restore() {
      state.online = true;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const connection of open) drop(connection);
        server.close(() => resolve());
      }),
  };
}

export interface AppServer {
  /** The origin the browser uses (the relay). */
  origin: string;
  /** The server itself, past the relay: what the tests ask while the browser's network is cut. */
  direct: string;
  network: Network;
  stop: () => Promise<void>;
}

/**
 * `npm start` (scripts/start.mjs, which builds what is out of date) on a fresh data directory,
 * reached through the relay, with the environment the Chromium suite's web server gets.
 */
export async function startApp(): Promise<AppServer> {
  const port = await freePort();
  const network = await relay(() => port);
  const origin = `http://localhost:${network.port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-e2e-'));
  const errors: string[] = [];
  const child: ChildProcess = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { ...process.env, ...appEnv({ port, dataDir, origin }) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    errors.push(chunk.toString());
    process.stderr.write(chunk);
  });
  let stopping = false;
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      // A server gone mid-suite fails every flow after it; say so where the failures show.
      if (!stopping) console.error(`npm start exited during the suite: ${signal ?? code}`);
      resolve();
    }),
  );
  // Should the test process itself die, the server goes with it.
  const orphanGuard = () => child.kill('SIGTERM');
  process.once('exit', orphanGuard);
  const stop = async () => {
    stopping = true;
    process.off('exit', orphanGuard);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    await network.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  // The first start may build the app and the server: give it the time the Chromium suite does.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`npm start exited with ${child.exitCode}: ${errors.join('').slice(-2000)}`);
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`no answer on ${origin}/healthz after 180 s`);
    }
    try {
      if ((await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5_000) })).ok)
        return { origin, direct: `http://localhost:${port}`, network, stop };
    } catch {
      // Not listening yet, or not answering yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
