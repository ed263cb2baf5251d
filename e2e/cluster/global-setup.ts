import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ROOT, startCluster } from './cluster.ts';

/** Starts the cluster once for the run; the returned function stops it (Playwright's teardown). */
export default async function globalSetup() {
  // The nodes run the production build, as the units do.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
  const cluster = await startCluster();
  process.env.ORBIT_CLUSTER = JSON.stringify(cluster.info);
  return () => cluster.stop();
}
