/// <reference types="node" />
import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../chromium.ts';

/**
 * The cluster test: Chromium through nginx (TLS) in front of two Orbit nodes on PostgreSQL, Redis
 * and an S3-compatible bucket (`npm test -- cluster`). global-setup.ts starts all of it.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/cluster',
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  workers: 1,
  // A test that needs a second try is a failing test: no retries, locally or in CI.
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  globalSetup: './global-setup.ts',
  use: {
    headless: true,
    trace: 'retain-on-failure',
    ignoreHTTPSErrors: true,
    serviceWorkers: 'block',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
});
