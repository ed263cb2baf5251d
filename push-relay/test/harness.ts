/** A real Orbit server, the fake push service and the relay, wired together for tests. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { type Socket, io } from 'socket.io-client';
import { type TestApp, type TestDialect, buildTestApp } from '../../server/test/helpers.ts';
import { type Member, postPushSubscription } from '../../server/test/factories.ts';
import { startRelay } from '../src/relay.ts';
import type { Relay, RelayConfig, RelayEvents } from '../src/running.ts';
import type { FakePushService, FakeSubscription } from './fake-push-service.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const RELAY_SECRET = 'relay-secret-for-tests-0123456789';
export const VAPID_SUBJECT = 'mailto:ops@orbit.example';

export const tempDir = (prefix = 'orbit-relay-') => fs.mkdtemp(path.join(os.tmpdir(), prefix));

export interface Orbit extends TestApp {
  url: string;
}

/**
 * The tests' push service runs on this machine: the server and relays here let it through
 * (PUSH_ALLOW_LOCAL_SERVICE), which nothing in production does.
 */
export const LOCAL_PUSH_SERVICE = { PUSH_ALLOW_LOCAL_SERVICE: 'true' } as const;

/** A fresh server with push turned on, listening on a free loopback port. */
export async function startOrbit(
  secret = RELAY_SECRET,
  dialect: TestDialect = 'sqlite',
): Promise<Orbit> {
  const test = await buildTestApp({
    dialect,
    env: { RELAY_SECRET: secret, ...LOCAL_PUSH_SERVICE },
  });
  await test.app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = test.app.server.address() as AddressInfo;
  return Object.assign(test, { url: `http://127.0.0.1:${port}` });
}

/** Resolves once the relay holds the lease and caught up, or stands by for another relay. */
function ready(relay: Relay): Promise<'leader' | 'standby'> {
  return new Promise((resolve) => {
    const leader = () => done('leader');
    const standby = () => done('standby');
    const done = (role: 'leader' | 'standby') => {
      relay.off('caught-up', leader);
      relay.off('standby', standby);
      resolve(role);
    };
    relay.once('caught-up', leader);
    relay.once('standby', standby);
  });
}

/**
 * The relay in this process, trusting the fake service's certificate; resolves once it is ready
 * (caught up with the lease, or standing by).
 */
export async function startTestRelay(
  orbit: Orbit,
  service: FakePushService,
  overrides: Partial<RelayConfig> = {},
): Promise<Relay> {
  const dataDir = await tempDir();
  const relay = await startRelay({
    serverUrl: orbit.url,
    secret: RELAY_SECRET,
    dataDir,
    vapidSubject: VAPID_SUBJECT,
    trustedCa: service.certificate,
    endpoints: { extraHosts: [], allowLocal: true },
    retry: { baseMs: 50, maxAttempts: 5, budgetMs: 10_000 },
    ...overrides,
  });
  relay.once('closed', () => void fs.rm(dataDir, { recursive: true, force: true }));
  if (overrides.secret === undefined || overrides.secret === RELAY_SECRET) await ready(relay);
  return relay;
}

/** Registers a new fake device for the member through POST /api/push/subscriptions. */
export async function addDevice(
  orbit: Orbit,
  service: FakePushService,
  member: Member,
): Promise<FakeSubscription> {
  const device = service.subscribe();
  const response = await postPushSubscription(orbit.app, member, {
    endpoint: device.endpoint,
    keys: device.keys,
  });
  if (response.statusCode !== 201)
    throw new Error(`subscribe answered ${response.statusCode}: ${response.body}`);
  return device;
}

/** The next event the relay settles. */
export function nextSettled(relay: Relay): Promise<RelayEvents['settled'][0]> {
  return new Promise((resolve) => relay.once('settled', resolve));
}

/** An open Orbit tab of the member: a socket in presence. */
export async function openTab(orbit: Orbit, member: Member): Promise<Socket> {
  const socket = io(orbit.url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    auth: { token: member.token },
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  const ack = (await socket.timeout(5_000).emitWithAck('presence:join', {
    userId: member.user.id,
  })) as { ok: boolean };
  if (!ack.ok) throw new Error('presence:join refused');
  return socket;
}

export interface RelayProcess {
  child: ChildProcess;
  /** Structured log lines so far. */
  lines: Record<string, unknown>[];
  /** Resolves with the first log line (already written or still to come) with this message. */
  logged(message: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  exited: Promise<void>;
}

/** `node --import tsx push-relay/src/main.ts` as a child, configured only by its environment. */
export function spawnRelay(env: Record<string, string>): RelayProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'push-relay/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Record<string, unknown>[] = [];
  const waiters: { message: string; resolve: (line: Record<string, unknown>) => void }[] = [];
  readline.createInterface({ input: child.stdout }).on('line', (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return;
    }
    lines.push(line);
    for (const waiter of waiters.filter((entry) => entry.message === line.msg)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    lines,
    exited,
    logged(message, timeoutMs = 20_000) {
      const seen = lines.find((line) => line.msg === message);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`the relay did not log "${message}" within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push({
          message,
          resolve: (line) => {
            clearTimeout(timer);
            resolve(line);
          },
        });
      });
    },
  };
}
