/** `npm run seed` as an operator runs it: a real process on a fresh data directory. */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'orbit-seed-'));
afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

async function seed(env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'server/src/seed.ts'],
    {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: '', DATA_DIR: dataDir, ...env },
    },
  );
  return stdout;
}

describe('npm run seed', () => {
  it('says where to log in on the port the server is given', async () => {
    const output = await seed({ PORT: '5123', PUBLIC_URL: '' });
    expect(output).toMatch(/^astra\.vega +\S+ +astra\.vega@orbit\.example$/m);
    expect(output).toContain('Log in at http://localhost:5123/landing');
  }, 60_000);

  it('says PUBLIC_URL when the operator set one, and leaves existing members unchanged', async () => {
    const output = await seed({ PORT: '5123', PUBLIC_URL: 'https://orbit.example/' });
    expect(output).toMatch(/^astra\.vega +\(exists, unchanged\)/m);
    expect(output).toContain('Log in at https://orbit.example/landing');
  }, 60_000);
});
