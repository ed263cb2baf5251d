/** What the running server writes: JSON lines for log shippers, readable lines on request. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ServerProcess, startServerProcess } from './server-process.ts';

let node: ServerProcess | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await node?.kill('SIGTERM');
  if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  node = undefined;
  dataDir = undefined;
});

async function start(env: Record<string, string> = {}): Promise<ServerProcess> {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-logging-'));
  node = await startServerProcess({
    DATA_DIR: dataDir,
    STATIC_DIR: path.join(dataDir, 'no-static-build'),
    ...env,
  });
  return node;
}

/** Waits until the ready line is out: it comes just after the server starts listening. */
async function readyOutput(server: ServerProcess): Promise<string> {
  await vi.waitFor(() => expect(server.stdout()).toContain('Orbit is ready at'), {
    timeout: 10_000,
  });
  return server.stdout();
}

/** What a person on this machine opens: localhost, at the port the server listens on. */
const openedAt = (server: ServerProcess) => server.origin.replace('//127.0.0.1:', '//localhost:');

describe('the server log', () => {
  it('is one JSON object per line when stdout is not a terminal, ready line included', async () => {
    const server = await start();
    const lines = (await readyOutput(server)).trim().split('\n');
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ready = entries.find((entry) => String(entry.msg).startsWith('Orbit is ready'));
    // The port really listened on (PORT=0 picks a free one), on localhost for 127.0.0.1.
    expect(ready).toMatchObject({
      level: 30,
      msg: `Orbit is ready at ${openedAt(server)}`,
      url: openedAt(server),
    });
  });

  it('carries PUBLIC_URL beside the local address when the operator set one', async () => {
    const server = await start({ PUBLIC_URL: 'https://orbit.example' });
    const ready = (await readyOutput(server))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => String(entry.msg).startsWith('Orbit is ready'));
    expect(ready).toMatchObject({
      msg: `Orbit is ready at ${openedAt(server)}`,
      publicUrl: 'https://orbit.example',
    });
  });

  it('is readable lines with LOG_FORMAT=pretty, as at a terminal', async () => {
    const server = await start({ LOG_FORMAT: 'pretty', NO_COLOR: '1' });
    const output = await readyOutput(server);
    expect(output).toMatch(
      new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\] INFO: Orbit is ready at ${openedAt(server)}$`, 'm'),
    );
    expect(output).not.toMatch(/^\{/m);
  });

  it('writes a request as one readable line with LOG_FORMAT=pretty', async () => {
    const server = await start({ LOG_FORMAT: 'pretty', NO_COLOR: '1', LOG_LEVEL: 'info' });
    const before = (await readyOutput(server)).length;
    await fetch(`${server.origin}/healthz`);
    await vi.waitFor(() => expect(server.stdout()).toContain('GET /healthz'), { timeout: 10_000 });
    const lines = server.stdout().slice(before).split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: GET \/healthz 200 [\d.]+ ms$/);
  });
});
