/// <reference types="node" />
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { appEnv } from './e2e/appEnv.ts';
import { chromiumLaunchOptions } from './e2e/chromium.ts';

const port = Number(process.env.E2E_PORT ?? 5179);
const origin = `http://localhost:${port}`;

// One fresh data directory per run. The config is read again in every worker, so the first
// read puts the path in the environment and the workers inherit it.
process.env.ORBIT_E2E_DATA_DIR ??= path.join(os.tmpdir(), `orbit-e2e-${Date.now()}-${process.pid}`);
const dataDir = process.env.ORBIT_E2E_DATA_DIR;

export default defineConfig({
  testDir: 'e2e',
  // The cluster test has its own configuration (e2e/cluster/playwright.config.ts); the Firefox and
  // WebKit smoke suites run under vitest (e2e/cross-browser).
  testIgnore: ['cluster/**', 'cross-browser/**'],
  outputDir: 'test-results',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  workers: 2,
  // A test that needs a second try is a failing test: no retries, locally or in CI.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  globalTeardown: './e2e/global-teardown.ts',
  use: {
    baseURL: origin,
    headless: true,
    trace: 'retain-on-failure',
    // Requests a service worker answers bypass page.route; the specs about the worker allow it.
    serviceWorkers: 'block',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${origin}/healthz`,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      ...appEnv({ port, dataDir, origin }),
      // The push service of e2e/push.spec.ts's stubbed subscriptions (a name that never resolves).
      PUSH_ALLOWED_HOSTS: 'push.orbit.test',
    },
  },
});
