/**
 * A push service on loopback over TLS that checks what arrives the way a real one and the
 * browser would: VAPID (RFC 8292) and the aes128gcm body (RFC 8291), with node:crypto only.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  type ReceiverKeys,
  decryptAes128gcm,
  newReceiverKeys,
  verifyVapid,
} from './push-crypto.ts';
import { writeSelfSignedCertificate } from './certificate.ts';

export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  ttl: number;
  urgency: string | undefined;
  topic: string | undefined;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  vapidKey: string;
  /** performance.now() when the body was decrypted. */
  at: number;
}

export interface RejectedPush {
  subscriptionId: string;
  status: number;
  reason: string;
}

interface Failure {
  status: number;
  remaining: number;
  headers: Record<string, string>;
}

/** A self-signed certificate for 127.0.0.1, made in a temporary folder. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-fake-push-'));
  try {
    const files = writeSelfSignedCertificate(dir, '127.0.0.1', 'IP:127.0.0.1');
    return { key: fs.readFileSync(files.key, 'utf8'), cert: fs.readFileSync(files.cert, 'utf8') };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export class FakePushService extends EventEmitter<{
  push: [ReceivedPush];
  rejected: [RejectedPush];
}> {
  readonly received: ReceivedPush[] = [];
  readonly rejected: RejectedPush[] = [];
  /** Every request that arrived, answered however. */
  requests = 0;
  /** Requests per device, answered however. */
  readonly #attempts = new Map<string, number>();
  readonly #receivers = new Map<string, ReceiverKeys>();
  readonly #failures = new Map<string, Failure>();

  constructor(
    readonly server: https.Server,
    readonly origin: string,
    /** The certificate to trust (it is its own authority). */
    readonly certificate: string,
  ) {
    super();
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const { status, headers } = this.#answer(request, Buffer.concat(chunks));
        response.writeHead(status, headers).end();
      });
    });
  }

  /** A new device: a P-256 key pair and a 16-byte auth secret, as a browser makes them. */
  subscribe(): FakeSubscription {
    const id = randomUUID();
    const receiver = newReceiverKeys(randomBytes(16));
    this.#receivers.set(id, receiver);
    return {
      id,
      endpoint: `${this.origin}/push/${id}`,
      keys: {
        p256dh: receiver.publicKey.toString('base64url'),
        auth: receiver.authSecret.toString('base64url'),
      },
    };
  }

  /** Answers `status` to the next `count` pushes for this device. */
  failNext(
    subscriptionId: string,
    status: number,
    count = 1,
    headers: Record<string, string> = {},
  ) {
    this.#failures.set(subscriptionId, { status, remaining: count, headers });
  }

  /** Accepts pushes for this device again after failNext. */
  recover(subscriptionId: string) {
    this.#failures.delete(subscriptionId);
  }

  /** How many requests for this device arrived, answered however. */
  attemptsFor(subscriptionId: string): number {
    return this.#attempts.get(subscriptionId) ?? 0;
  }

  pushesFor(subscriptionId: string): ReceivedPush[] {
    return this.received.filter((push) => push.subscriptionId === subscriptionId);
  }

  /** The first push (already received or still to come) that `match` accepts. */
  waitFor(match: (push: ReceivedPush) => boolean, timeoutMs = 10_000): Promise<ReceivedPush> {
    const seen = this.received.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.off('push', listener);
        reject(new Error(`no matching push within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (push: ReceivedPush) => {
        if (!match(push)) return;
        clearTimeout(timer);
        this.off('push', listener);
        resolve(push);
      };
      this.on('push', listener);
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  #answer(
    request: IncomingMessage,
    body: Buffer,
  ): { status: number; headers: Record<string, string> } {
    this.requests++;
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const receiver = this.#receivers.get(id);
    if (request.method !== 'POST' || !receiver) return { status: 404, headers: {} };
    this.#attempts.set(id, this.attemptsFor(id) + 1);
    const failure = this.#failures.get(id);
    if (failure && failure.remaining > 0) {
      failure.remaining--;
      return { status: failure.status, headers: failure.headers };
    }
    const reject = (status: number, reason: string) => {
      const rejected = { subscriptionId: id, status, reason };
      this.rejected.push(rejected);
      this.emit('rejected', rejected);
      return { status, headers: {} };
    };
    let vapid;
    try {
      vapid = verifyVapid(request.headers.authorization, this.origin);
    } catch (error) {
      return reject(401, (error as Error).message);
    }
    const ttl = Number(request.headers.ttl);
    if (request.headers.ttl === undefined || !Number.isInteger(ttl) || ttl < 0)
      return reject(400, 'missing or invalid TTL');
    if (request.headers['content-encoding'] !== 'aes128gcm')
      return reject(415, `content-encoding ${request.headers['content-encoding']}`);
    let payload: unknown;
    try {
      payload = JSON.parse(decryptAes128gcm(body, receiver).toString('utf8'));
    } catch (error) {
      return reject(400, `cannot decrypt: ${(error as Error).message}`);
    }
    const push: ReceivedPush = {
      subscriptionId: id,
      ttl,
      urgency: request.headers.urgency as string | undefined,
      topic: request.headers.topic as string | undefined,
      payload,
      vapidKey: vapid.publicKey,
      at: performance.now(),
    };
    this.received.push(push);
    this.emit('push', push);
    return { status: 201, headers: { location: `${this.origin}/message/${randomUUID()}` } };
  }
}

export async function startFakePushService(): Promise<FakePushService> {
  const { key, cert } = selfSignedCertificate();
  const server = https.createServer({ key, cert, keepAliveTimeout: 30_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new FakePushService(server, `https://127.0.0.1:${port}`, cert);
}
