/**
 * The push benchmarks' set-up: the server and push-relay as child processes (as `npm start` runs
 * them), the fake push service in this process, and members with devices made through the API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import * as PATHS from '../src/contracts/endpoints.paths.ts';
import {
  type FakePushService,
  type FakeSubscription,
  startFakePushService,
} from '../push-relay/test/fake-push-service.ts';
import { ROOT, signupBenchMember, startServer } from './common.ts';

export interface PushBench {
  base: string;
  service: FakePushService;
  signup(username: string): Promise<BenchMember>;
  addDevice(member: BenchMember): Promise<FakeSubscription>;
  post(member: BenchMember, action: string, body: object): Promise<Response>;
  stop(): Promise<void>;
}

export interface BenchMember {
  id: string;
  token: string;
}

function waitForExit(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Resolves once the relay logs `message` (it logs JSON lines); rejects if it exits first. */
function relayLogged(child: ChildProcess, message: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on('line', (text) => {
      if (text.includes(`"msg":"${message}"`)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the relay exited with ${code}`)));
  });
}

export async function startPushBench(relayEnv: Record<string, string> = {}): Promise<PushBench> {
  const service = await startFakePushService();
  const relaySecret = randomBytes(32).toString('base64url');
  const server = await startServer({
    // The fake push service runs on this machine: let it through (tests and benchmarks only).
    env: { RELAY_SECRET: relaySecret, PUSH_ALLOW_LOCAL_SERVICE: 'true' },
    dataPrefix: 'orbit-bench-push-',
  });
  const base = server.origin;
  const caFile = path.join(server.dataDir, 'push-ca.pem');
  fs.writeFileSync(caFile, service.certificate);
  const relay = spawn(process.execPath, ['--import', 'tsx', 'push-relay/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATA_DIR: server.dataDir,
      RELAY_SECRET: relaySecret,
      SERVER_URL: base,
      VAPID_SUBJECT: 'mailto:bench@orbit.example',
      NODE_EXTRA_CA_CERTS: caFile,
      PUSH_ALLOW_LOCAL_SERVICE: 'true',
      LOG_LEVEL: 'info',
      ...relayEnv,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await relayLogged(relay, 'this relay is sending the pushes');

  return {
    base,
    service,
    async signup(username) {
      const { token, userId } = await signupBenchMember(base, username);
      return { id: userId, token };
    },
    async addDevice(member) {
      const device = service.subscribe();
      const response = await fetch(`${base}${PATHS.pushSubscribe.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ endpoint: device.endpoint, keys: device.keys }),
      });
      if (response.status !== 201) throw new Error(`subscribe answered ${response.status}`);
      return device;
    },
    post(member, action, body) {
      return fetch(`${base}/api/users/friends/${action}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    },
    async stop() {
      relay.kill('SIGTERM');
      await waitForExit(relay);
      await server.stop();
      await service.close();
    },
  };
}
