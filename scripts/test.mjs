// `npm test`: typecheck, lint, unused code, unit, server and browser tests, in that order, then one
// closing line `tests: N passed, N failed[, N skipped]`. `npm test -- unit server` runs only those
// steps. Steps: typecheck, lint, knip (unused files, exports and dependencies, by knip.json), unit
// (page and service worker), server, relay (push-relay), browser, budget (the start-up budget of
// bench/bundle.ts), firefox and webkit (the main flows in Firefox ESR and WebKitGTK, e2e/cross-browser), cluster
// (nginx with TLS in front of two nodes on PostgreSQL, Redis and an S3-compatible bucket).
// `smoke` (a few browser specs: sign-up, login, friends live) runs only when named; CI's second
// Node leg uses it.
//
// DIALECTS      databases for the server tests, comma-separated (default: sqlite)
// PG_TEST_URL   PostgreSQL for the server tests when DIALECTS names postgres (see docs/testing.md)
// ORBIT_REQUIRE_ALL=1  a skipped test, a vitest project that finds no tests, or a step skipped
//               for a missing PostgreSQL or browser, is a failure (CI sets it)
// CHROME_PATH   Chromium for the browser tests (default: /usr/bin/chromium)
// FIREFOX_PATH  Firefox for the firefox step (default: /usr/bin/firefox-esr)
// WEBKIT_DRIVER_PATH, MINIBROWSER_PATH, XVFB_PATH  WebKitGTK's driver and browser, and the X
//               server they run in, for the webkit step (defaults: Debian's webkit2gtk-driver, xvfb)
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const requireAll = process.env.ORBIT_REQUIRE_ALL === '1';
const dialects = process.env.DIALECTS?.trim() || 'sqlite';
const chromePath = process.env.CHROME_PATH || '/usr/bin/chromium';
const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-test-'));

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const vitest = (project, ...more) => ({
  command: bin('vitest'),
  args: [
    'run',
    ...[project, ...more].flatMap((name) => ['--project', name]),
    // An emptied or mistyped glob must fail when everything is required to run.
    ...(requireAll ? [] : ['--passWithNoTests']),
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${path.join(reportDir, `${project}.json`)}`,
  ],
  report: path.join(reportDir, `${project}.json`),
  read: readVitestReport,
});

/** @typedef {{ command: string, args: string[], env?: NodeJS.ProcessEnv, report?: string, read?: (file: string) => Counts } | { skip: string }} Step */
/** @type {Record<string, () => Step | Promise<Step>>} */
const STEPS = {
  typecheck: () => ({ command: 'npm', args: ['run', 'typecheck'] }),
  lint: () => ({ command: 'npm', args: ['run', 'lint'] }),
  knip: () => ({ command: bin('knip'), args: ['--no-progress'] }),
  unit: () => vitest('unit', 'sw', 'lint'),
  server: () => ({ ...vitest('server'), env: { ...process.env, DIALECTS: dialects } }),
  relay: () => vitest('relay'),
  browser: () => playwright([]),
  // The start-up budget: /landing's JavaScript against the framework's, and the worker's size.
  budget: () => ({ command: bin('tsx'), args: ['bench/bundle.ts'] }),
  firefox: () => crossBrowser('firefox', firefoxMissing()),
  webkit: () => crossBrowser('webkit', webkitMissing()),
  smoke: () => playwright(SMOKE_SPECS),
  cluster: async () => {
    const nginx = process.env.NGINX_PATH || '/usr/sbin/nginx';
    if (!fs.existsSync(nginx))
      return { skip: `nginx was not found at ${nginx} (install Debian's nginx or set NGINX_PATH)` };
    const missing = await clusterServicesMissing();
    if (missing) return { skip: missing };
    return playwright(['--config', 'e2e/cluster/playwright.config.ts'], 'cluster');
  },
};
/** Steps a plain `npm test` leaves out: they repeat part of another step. */
const ONLY_WHEN_NAMED = new Set(['smoke']);
const SMOKE_SPECS = ['e2e/smoke.spec.ts', 'e2e/auth.spec.ts', 'e2e/friends.spec.ts'];

/** Playwright in Debian's Chromium, with these arguments (spec files, a config). */
function playwright(specs, name = specs.length ? 'smoke' : 'browser') {
  if (!fs.existsSync(chromePath)) {
    return {
      skip: `Chromium was not found at ${chromePath} (install Debian's chromium or set CHROME_PATH)`,
    };
  }
  const report = path.join(reportDir, `${name}.json`);
  return {
    command: bin('playwright'),
    args: ['test', '--reporter=list,json', ...specs],
    env: { ...process.env, CHROME_PATH: chromePath, PLAYWRIGHT_JSON_OUTPUT_NAME: report },
    report,
    read: readPlaywrightReport,
  };
}

/** A smoke suite of e2e/cross-browser (a vitest project of its own), unless its browser is missing. */
function crossBrowser(name, missing) {
  return missing ? { skip: missing } : vitest(name);
}

/** Why Firefox cannot run here, or undefined when it can (the same defaults as e2e/cross-browser). */
function firefoxMissing() {
  const firefox = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';
  return fs.existsSync(firefox)
    ? undefined
    : `Firefox was not found at ${firefox} (install Debian's firefox-esr or set FIREFOX_PATH)`;
}

/** Why WebKitGTK cannot run here, or undefined when it can. */
function webkitMissing() {
  let miniBrowser = process.env.MINIBROWSER_PATH;
  if (!miniBrowser) {
    try {
      miniBrowser = execFileSync('dpkg', ['-L', 'libwebkit2gtk-4.1-0'], { encoding: 'utf8' })
        .split('\n')
        .find((file) => file.endsWith('/MiniBrowser'));
    } catch {
      // Not installed: the usual place is checked below.
    }
  }
  const needed = [
    [process.env.WEBKIT_DRIVER_PATH || '/usr/bin/WebKitWebDriver', 'WEBKIT_DRIVER_PATH'],
    [miniBrowser || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', 'MINIBROWSER_PATH'],
    [process.env.XVFB_PATH || '/usr/bin/Xvfb', 'XVFB_PATH'],
  ];
  const missing = needed.find(([file]) => !fs.existsSync(file));
  return missing
    ? `${missing[0]} was not found (install Debian's webkit2gtk-driver and xvfb, or set ${missing[1]})`
    : undefined;
}

/** Why the cluster cannot run here (PostgreSQL or Redis unreachable), or undefined when it can. */
async function clusterServicesMissing() {
  const pgUrl = process.env.PG_TEST_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.CLUSTER_REDIS_URL || 'redis://127.0.0.1:6379/7';
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: pgUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    return `PostgreSQL at ${pgUrl} is unreachable (${error.message}); set PG_TEST_URL`;
  } finally {
    await client.end().catch(() => {});
  }
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  /** @type {Error | undefined} */
  let cause;
  redis.on('error', (error) => (cause ??= error));
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    return `Redis at ${redisUrl} is unreachable (${(cause ?? error).message}); set CLUSTER_REDIS_URL`;
  } finally {
    redis.disconnect();
  }
  return undefined;
}

/**
 * What a step's report says; `failures` names each failed test (file › title) so the summary at
 * the end of a long log still says what to look at.
 * @typedef {{ passed: number, failed: number, skipped: number, failures: string[] }} Counts
 */

const relative = (file) => path.relative(process.cwd(), file);

/** @returns {Counts} */
function readVitestReport(file) {
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  /** @type {string[]} */
  const failures = [];
  let brokenFiles = 0;
  for (const result of report.testResults ?? []) {
    const failedTests = (result.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failedTests) failures.push(`${relative(result.name)} › ${test.fullName}`);
    // A test file that fails to load has no failed tests but is a failure all the same.
    if (result.status === 'failed' && failedTests.length === 0) {
      brokenFiles += 1;
      failures.push(
        `${relative(result.name)} (did not run: ${result.message ?? 'failed to load'})`,
      );
    }
  }
  return {
    passed: report.numPassedTests ?? 0,
    failed: (report.numFailedTests ?? 0) + brokenFiles,
    skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
    failures,
  };
}

/** @returns {Counts} */
function readPlaywrightReport(file) {
  const { stats, suites } = JSON.parse(fs.readFileSync(file, 'utf8'));
  /** @type {string[]} */
  const failures = [];
  const visit = (suite) => {
    for (const spec of suite.specs ?? []) {
      if (!spec.ok) failures.push(`${spec.file}:${spec.line} › ${spec.title}`);
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of suites ?? []) visit(suite);
  return {
    passed: stats?.expected ?? 0,
    // With no retries nothing should be flaky; if a config brings retries back, a test that
    // passed only on its second try still failed once, so it counts as failed.
    failed: (stats?.unexpected ?? 0) + (stats?.flaky ?? 0),
    skipped: stats?.skipped ?? 0,
    failures,
  };
}

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in STEPS));
if (unknown.length) {
  console.error(`Unknown step(s): ${unknown.join(', ')}. Steps: ${Object.keys(STEPS).join(', ')}.`);
  process.exit(2);
}
const selected = requested.length
  ? Object.keys(STEPS).filter((name) => requested.includes(name))
  : Object.keys(STEPS).filter((name) => !ONLY_WHEN_NAMED.has(name));

const totals = { passed: 0, failed: 0, skipped: 0 };
/** @type {{ name: string, outcome: string, seconds: number }[]} */
const summary = [];
/** @type {string[]} */
const failures = [];
let failed = false;

for (const name of selected) {
  const started = Date.now();
  const step = await STEPS[name]();
  console.log(`\n━━ ${name} ${'━'.repeat(Math.max(0, 60 - name.length))}`);
  if ('skip' in step) {
    const line = `${name} skipped: ${step.skip}`;
    if (requireAll) {
      console.error(`✖ ${line} — ORBIT_REQUIRE_ALL is set, so this is a failure.`);
      failed = true;
      summary.push({ name, outcome: `FAILED: ${step.skip}`, seconds: 0 });
    } else {
      console.warn(
        `\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n!! WARNING: ${line}\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n`,
      );
      summary.push({ name, outcome: `SKIPPED: ${step.skip}`, seconds: 0 });
    }
    continue;
  }
  if (step.report) fs.rmSync(step.report, { force: true });
  const result = spawnSync(step.command, step.args, {
    stdio: 'inherit',
    env: step.env ?? process.env,
  });
  const seconds = (Date.now() - started) / 1000;
  let outcome =
    result.status === 0
      ? 'ok'
      : `FAILED (exit ${result.status ?? result.signal ?? result.error?.message})`;
  if (result.status !== 0) failed = true;
  if (step.report && step.read) {
    if (fs.existsSync(step.report)) {
      const counts = step.read(step.report);
      totals.passed += counts.passed;
      totals.failed += counts.failed;
      totals.skipped += counts.skipped;
      failures.push(...counts.failures.map((failure) => `${name}: ${failure}`));
      outcome += ` — ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`;
      if (counts.failed > 0) failed = true;
      if (counts.skipped > 0 && requireAll) {
        failed = true;
        outcome += ' (skips not allowed: ORBIT_REQUIRE_ALL)';
      }
    } else {
      failed = true;
      outcome += ' — no test report was written';
    }
  }
  summary.push({ name, outcome, seconds });
}

fs.rmSync(reportDir, { recursive: true, force: true });

console.log('\n━━ summary ' + '━'.repeat(53));
for (const { name, outcome, seconds } of summary) {
  console.log(`${name.padEnd(10)} ${outcome}${seconds ? `  (${seconds.toFixed(1)} s)` : ''}`);
}
if (failures.length) {
  console.log('\nFailed:');
  for (const failure of failures) console.log(`  ✖ ${failure}`);
}
if (requireAll && totals.skipped > 0)
  console.log(`${totals.skipped} skipped test(s) count as failures (ORBIT_REQUIRE_ALL).`);
console.log(
  `tests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`,
);
process.exit(failed ? 1 : 0);
