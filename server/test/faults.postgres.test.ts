/**
 * Faults: PostgreSQL crashes and comes back under traffic (part of the fault suite, see
 * faults.crash.test.ts). A private cluster (initdb under the temporary folder, on a free port) is
 * stopped with `-m immediate` while a real server process serves session checks, friend calls and
 * logins: every answer is a 2xx or a clean 5xx (`{error}` in the member's words, no internals),
 * `/readyz` names the database, the process stays up, and once PostgreSQL is back the same
 * process serves again. Runs whatever DIALECTS says, since the cluster is its own; needs root
 * (the cluster runs as user postgres) and Debian's PostgreSQL binaries, and is skipped with the
 * reason otherwise (a failure with ORBIT_REQUIRE_ALL=1).
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthResponse } from '../../src/contracts/user.ts';
import { INTERNAL_ERROR } from '../src/plugins/errors.ts';
import { CONNECT_TIMEOUT_MS, createDatabase } from '../src/db/index.ts';
import { sql } from 'kysely';
import {
  PASSWORD,
  describeWithPostgres,
  freshDatabase,
  signupFields,
  uniqueUsername,
} from './helpers.ts';
import { createFreshDatabase } from './postgres.ts';
import {
  type PrivatePostgres,
  describeUnlessMissing,
  privatePostgresProblem,
  startPrivatePostgres,
} from './private-services.ts';
import { type ServerProcess, startServerProcess } from './server-process.ts';

const suite = describeUnlessMissing(privatePostgresProblem(), 'The PostgreSQL crash test');

describe('a PostgreSQL address that takes connections and never answers', () => {
  it('fails the query once the connection timeout is over instead of waiting for good', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const { db } = createDatabase({
      databaseUrl: `postgres://orbit@127.0.0.1:${port}/orbit`,
      sqlitePath: '',
    });
    const started = performance.now();
    try {
      await expect(sql`select 1`.execute(db)).rejects.toThrow(/timeout/i);
      expect(performance.now() - started).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 100);
    } finally {
      await db.destroy();
      silent.close();
    }
  });
});

const shared = await describeWithPostgres('the dropped-connection test');

shared('a pooled connection that PostgreSQL drops while it is in use', () => {
  it('fails its query and leaves the process running', async () => {
    const database = await freshDatabase('postgres');
    const { db } = database;
    const admin = await freshDatabase('postgres');
    try {
      await expect(
        db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // Another session ends this one between two statements, as a restart would.
          await sql`select pg_terminate_backend(${rows[0]?.pid})`.execute(admin.db);
          await new Promise((resolve) => setTimeout(resolve, 200));
          await sql`select 1`.execute(trx);
        }),
      ).rejects.toThrow();
      // The pool opens a new connection for the next query.
      expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.close();
      await database.close();
    }
  });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  what: string;
  status: number;
  body: unknown;
  ms: number;
}

suite('PostgreSQL crashed and started again under traffic', () => {
  let cluster: PrivatePostgres;
  let dataDir: string;
  let node: ServerProcess;
  let a: { id: string; token: string; username: string };
  let b: { id: string; token: string };

  async function call(what: string, url: string, init: RequestInit = {}): Promise<Answer> {
    const started = performance.now();
    const response = await fetch(`${node.origin}${url}`, {
      ...init,
      signal: AbortSignal.timeout(15_000),
    });
    const body = await response.json();
    return { what, status: response.status, body, ms: performance.now() - started };
  }
  const post = (what: string, url: string, body: object, token?: string) =>
    call(what, url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(body),
    });

  async function signup() {
    const username = uniqueUsername('pg');
    const { payload, headers } = await signupFields({ username });
    const response = await fetch(`${node.origin}/api/auth/signup`, {
      method: 'POST',
      headers,
      body: new Uint8Array(payload),
    });
    expect(response.status).toBe(201);
    const body = (await response.json()) as AuthResponse;
    return { id: body.user.id, token: body.token, username };
  }

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const database = await createFreshDatabase(cluster.adminUrl, 'orbit_fault');
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-fault-pg-'));
    node = await startServerProcess({
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(dataDir, 'no-static-build'),
      AUTH_RATE_LIMIT: '100000',
      DATABASE_URL: database.url,
    });
    a = await signup();
    b = await signup();
  });
  afterAll(async () => {
    await node?.kill('SIGKILL');
    await cluster?.remove();
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  });

  it('answers cleanly while it is down and serves again once it is back, without a restart', async () => {
    let asked = false;
    const calls = [
      () =>
        call('session check', '/api/auth/me', { headers: { authorization: `Bearer ${a.token}` } }),
      // Request and cancel in turn; a call that failed is sent again.
      async () => {
        const action = asked ? 'cancel' : 'request';
        const answer = await post(
          action,
          `/api/users/friends/${action}`,
          { toUserId: b.id },
          a.token,
        );
        if (answer.status === 200) asked = !asked;
        return answer;
      },
      () => post('login', '/api/auth/login', { identifier: a.username, password: PASSWORD }),
    ];
    let stopped = false;
    const answers: Answer[] = [];
    const lanes = calls.map(async (next) => {
      while (!stopped) answers.push(await next());
    });
    await sleep(500);
    const beforeCrash = answers.length;
    await cluster.crash();
    await sleep(1_000);
    const ready = await call('readiness', '/readyz');
    await sleep(500);
    stopped = true;
    await Promise.all(lanes);

    expect(beforeCrash).toBeGreaterThan(3);
    expect(ready).toMatchObject({
      status: 503,
      body: { status: 'unavailable', down: ['database'] },
    });
    const during = answers.slice(beforeCrash);
    const failed = during.filter((answer) => answer.status >= 500);
    expect(failed.length).toBeGreaterThan(3);
    for (const answer of during) {
      if (answer.status < 300) continue;
      // A clean failure: the generic text, never a driver's message, a query or a stack.
      expect({ what: answer.what, status: answer.status, body: answer.body }).toEqual({
        what: answer.what,
        status: 500,
        body: { error: INTERNAL_ERROR },
      });
      expect(answer.ms).toBeLessThan(5_000);
    }

    await cluster.start();
    const deadline = Date.now() + 20_000;
    let me = await calls[0]!();
    while (me.status !== 200 && Date.now() < deadline) {
      await sleep(200);
      me = await calls[0]!();
    }
    expect(me.status).toBe(200);
    const action = asked ? 'cancel' : 'request';
    expect(
      (await post(action, `/api/users/friends/${action}`, { toUserId: b.id }, a.token)).status,
    ).toBe(200);
    expect(node.child.exitCode).toBeNull();
    expect(await call('readiness', '/readyz')).toMatchObject({
      status: 200,
      body: { status: 'ready' },
    });
  });
});
