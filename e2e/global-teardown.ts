import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Removes the run's data directory (see playwright.config.ts); only ever one under the temp dir. */
export default async function globalTeardown() {
  const dataDir = process.env.ORBIT_E2E_DATA_DIR;
  if (!dataDir || process.env.ORBIT_E2E_KEEP_DATA) return;
  if (path.dirname(dataDir) !== os.tmpdir() || !path.basename(dataDir).startsWith('orbit-e2e-'))
    return;
  await fs.rm(dataDir, { recursive: true, force: true });
}
