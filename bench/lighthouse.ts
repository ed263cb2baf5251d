/**
 * Lighthouse (12.x, mobile form factor, default simulated throttling) on /landing and /signup,
 * signed out, and on a seeded /profile/{username} (a member with an avatar and 24 photos), signed
 * in with the session cookie in the browser profile. Three runs per page; the run with the median
 * performance score is reported, with the failing audits of every category below its goal (the
 * bf-cache audit with its reasons), and the worst accessibility score and CLS of all runs, which
 * must meet their goals on every run. The load average is recorded: other work on the machine
 * lengthens the traced tasks the simulation starts from.
 * `npx tsx bench/lighthouse.ts` (`BENCH_STATIC_DIR=<build>` uses an existing build instead of
 * building one; `BENCH_RUNS=n` for another number of runs) writes bench/results/lighthouse.json
 * and lighthouse.md. It exits with 1 when a page misses accessibility 1.0 or CLS ≤ 0.02.
 * `BENCH_LHR_DIR=<dir>` also keeps every run's whole Lighthouse report there (its long tasks, network
 * requests and every audit).
 * Goals: performance ≥ 0.98 on every page, accessibility 1.0, best
 * practices 1.0, CLS ≤ 0.02; the profile LCP ≤ 1.8 s and TBT ≤ 100 ms.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Result } from 'lighthouse';
import { type BrowserContext, chromium } from 'playwright-core';
import { RESULTS_DIR, freePort, machine, table, writeResult } from './common.ts';
import { chromiumLaunchOptions, seedMember, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const LHR_DIR = process.env.BENCH_LHR_DIR;
let reports = 0;
const PHOTOS = 24;
const GOALS = { performance: 0.98, accessibility: 1, 'best-practices': 1 } as const;
/** Layout shift a member should never notice. */
const CLS_GOAL = 0.02;
/** The profile's first paint: its avatar, the largest picture, and the main thread free. */
const PROFILE_LCP_GOAL_MS = 1_800;
const PROFILE_TBT_GOAL_MS = 100;
type CategoryId = keyof typeof GOALS;
const CATEGORIES = Object.keys(GOALS) as CategoryId[];

interface PageScores {
  scores: Record<CategoryId, number>;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  shifts: string[];
  /** Per category below its goal: the audits that did not pass, with their scores. */
  failing: Partial<Record<CategoryId, string[]>>;
  /** Where the LCP time went (time to first byte, load delay, load time, render delay). */
  lcpPhases: string[];
  /** Main-thread time per script (bootup-time), the largest first: what TBT is made of. */
  scripts: string[];
  finalUrl: string;
  /** Lighthouse's measure of the host's CPU (higher is faster): TBT is only comparable at a like index. */
  benchmarkIndex: number;
}

interface AuditItem {
  node?: { snippet?: string };
  /** A console error's text (errors-in-console). */
  description?: string;
  /** A layout shift's share of CLS (layout-shifts). */
  score?: number;
  /** Why the page was not restored from the back/forward cache (bf-cache). */
  reason?: string;
  failureType?: string;
  /** A request's address (render-blocking, unused JavaScript). */
  url?: string;
}

const itemsOf = (audit: Result['audits'][string] | undefined): AuditItem[] => {
  const items = (audit?.details as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? (items as AuditItem[]) : [];
};

const shortUrl = (url: string) => {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
};

/** Up to three page elements, console errors, bf-cache reasons or requests an audit points at. */
function offendingNodes(audit: Result['audits'][string]): string[] {
  const consoleErrors = audit.id === 'errors-in-console';
  return itemsOf(audit)
    .map(
      (item) =>
        item.node?.snippet ??
        (consoleErrors ? item.description : undefined) ??
        (item.reason
          ? `${item.reason}${item.failureType ? ` (${item.failureType})` : ''}`
          : undefined) ??
        (item.url ? shortUrl(item.url) : undefined),
    )
    .filter((text): text is string => Boolean(text))
    .slice(0, 3);
}

/** The elements that moved, with their share of CLS: what to fix when CLS misses its goal. */
function layoutShifts(lhr: Result): string[] {
  return itemsOf(lhr.audits['layout-shifts']).map(
    (item) => `${(item.score ?? 0).toFixed(3)} ${item.node?.snippet ?? '(unknown element)'}`,
  );
}

function failingAudits(lhr: Result, category: CategoryId): string[] {
  const threshold = category === 'performance' ? 0.9 : 1;
  return (lhr.categories[category]?.auditRefs ?? [])
    .map((ref) => lhr.audits[ref.id])
    .filter((audit) => audit !== undefined && audit.score !== null && audit.score < threshold)
    .map((audit) => {
      const nodes = audit ? offendingNodes(audit) : [];
      return `${audit?.id} (${audit?.score})${nodes.length ? ` at ${nodes.join(' ')}` : ''}`;
    });
}

/** The LCP element audit's phase table, as "phase time". */
function lcpPhases(lhr: Result): string[] {
  const details = lhr.audits['largest-contentful-paint-element']?.details as
    { items?: { items?: { phase?: string; timing?: number }[] }[] } | undefined;
  const phases = (details?.items ?? []).flatMap((table) => table.items ?? []);
  return phases
    .filter((row) => row.phase && typeof row.timing === 'number')
    .map((row) => `${row.phase} ${Math.round(row.timing ?? 0)} ms`);
}

function scriptTimes(lhr: Result): string[] {
  const items = itemsOf(lhr.audits['bootup-time']) as (AuditItem & {
    total?: number;
    scripting?: number;
  })[];
  return items
    .filter((item) => item.url && typeof item.total === 'number')
    .slice(0, 6)
    .map(
      (item) =>
        `${shortUrl(item.url ?? '')} ${Math.round(item.total ?? 0)} ms (scripting ${Math.round(item.scripting ?? 0)} ms)`,
    );
}

function scoresOf(lhr: Result, goals: Record<CategoryId, number>): PageScores {
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, lhr.categories[category]?.score ?? 0]),
  ) as Record<CategoryId, number>;
  const failing: PageScores['failing'] = {};
  for (const category of CATEGORIES)
    if (scores[category] < goals[category]) failing[category] = failingAudits(lhr, category);
  return {
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    shifts: layoutShifts(lhr),
    failing,
    lcpPhases: lcpPhases(lhr),
    scripts: scriptTimes(lhr),
    finalUrl: lhr.finalDisplayedUrl,
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

async function audit(
  url: string,
  port: number,
  goals: Record<CategoryId, number>,
): Promise<PageScores> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    formFactor: 'mobile',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse: ${runtimeError.code} ${runtimeError.message}`);
  if (LHR_DIR) {
    fs.mkdirSync(LHR_DIR, { recursive: true });
    const name = `${++reports}-${new URL(url).pathname.split('/')[1] ?? 'page'}.json`;
    fs.writeFileSync(path.join(LHR_DIR, name), JSON.stringify(result.lhr));
  }
  return scoresOf(result.lhr, goals);
}

/**
 * One audit, tried once more when Lighthouse could not record the trace (NO_NAVSTART and the
 * like, which a loaded machine sometimes causes): the page is not to blame for those.
 */
async function auditWithRetry(
  url: string,
  port: number,
  goals: Record<CategoryId, number>,
): Promise<PageScores> {
  try {
    return await audit(url, port, goals);
  } catch (error) {
    console.log(`${url}: ${(error as Error).message}; once more`);
    return audit(url, port, goals);
  }
}

/** Audits `url` RUNS times; answers the run with the median performance score, and all scores. */
async function auditPage(url: string, port: number, goals: Record<CategoryId, number> = GOALS) {
  const runs: PageScores[] = [];
  for (let run = 1; run <= RUNS; run++) {
    runs.push(await auditWithRetry(url, port, goals));
    console.log(`${url} run ${run}: performance ${runs.at(-1)?.scores.performance}`);
  }
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return {
    ...median,
    goals,
    medianLcpMs: medianOf(runs.map((run) => run.lcpMs)),
    medianTbtMs: medianOf(runs.map((run) => run.tbtMs)),
    benchmarkIndexes: runs.map((run) => run.benchmarkIndex),
    performanceRuns: runs.map((run) => run.scores.performance),
    worstAccessibility: Math.min(...runs.map((run) => run.scores.accessibility)),
    worstCls: Math.max(...runs.map((run) => run.cls)),
    worstShifts: [...runs].sort((a, b) => b.cls - a.cls)[0]?.shifts ?? [],
    // The goals hold on every run, so any run that missed one says why.
    accessibilityFailing: [...new Set(runs.flatMap((run) => run.failing.accessibility ?? []))],
  };
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Chromium with a normal profile that Lighthouse drives through its debugging port. */
async function launchBrowser(): Promise<{ context: BrowserContext; port: number; dir: string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(dir, {
    ...chromiumLaunchOptions,
    // Playwright turns the back/forward cache off by default; Lighthouse's bf-cache audit needs it.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [...chromiumLaunchOptions.args, `--remote-debugging-port=${port}`],
  });
  return { context, port, dir };
}

const format = (value: number, digits = 0) => value.toFixed(digits);
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

const loadBefore = loadAverage();
const server = await serveAppBuild('orbit-bench-lighthouse-');
const browser = await launchBrowser();
try {
  console.log(`Seeding a member with ${PHOTOS} photos…`);
  const member = await seedMember(server.origin, 'benchlighthouse', PHOTOS);
  const landing = await auditPage(`${server.origin}/landing`, browser.port);
  const signup = await auditPage(`${server.origin}/signup`, browser.port);
  await browser.context.addCookies([sessionCookie(server.origin, member)]);
  const profile = await auditPage(`${server.origin}/profile/${member.username}`, browser.port);
  if (!profile.finalUrl.includes(`/profile/${member.username}`))
    throw new Error(`the profile audit ended at ${profile.finalUrl}: not signed in?`);

  const loadAfter = loadAverage();
  const pages = { '/landing': landing, '/signup': signup, '/profile/{username}': profile };
  const rows = [
    ['page', 'performance', 'accessibility', 'best practices', 'LCP', 'TBT', 'CLS', 'worst CLS'],
    ...Object.entries(pages).map(([name, scores]) => [
      name,
      `${format(scores.scores.performance, 2)} (runs ${scores.performanceRuns.map((p) => format(p, 2)).join(', ')})`,
      format(scores.scores.accessibility, 2),
      format(scores.scores['best-practices'], 2),
      `${format(scores.lcpMs)} ms`,
      `${format(scores.tbtMs)} ms`,
      format(scores.cls, 3),
      format(scores.worstCls, 3),
    ]),
  ];
  console.log(`\nLighthouse ${RUNS} runs per page, mobile; the median run by performance`);
  console.log(table(rows));
  const below = Object.entries(pages).flatMap(([name, scores]) =>
    Object.entries(scores.failing).map(
      ([category, audits]) =>
        `${name} ${category} ${format(scores.scores[category as CategoryId], 2)} below ${scores.goals[category as CategoryId]}: ${audits.join(', ')}`,
    ),
  );
  for (const line of below) console.log(line);
  const profileMisses = [
    ...(profile.lcpMs > PROFILE_LCP_GOAL_MS
      ? [`/profile/{username}: LCP ${format(profile.lcpMs)} ms > ${PROFILE_LCP_GOAL_MS} ms`]
      : []),
    ...(profile.tbtMs > PROFILE_TBT_GOAL_MS
      ? [`/profile/{username}: TBT ${format(profile.tbtMs)} ms > ${PROFILE_TBT_GOAL_MS} ms`]
      : []),
  ];
  for (const line of profileMisses) console.log(line);
  const missed = Object.entries(pages).flatMap(([name, scores]) => [
    ...(scores.worstAccessibility < GOALS.accessibility
      ? [
          `${name}: accessibility ${format(scores.worstAccessibility, 2)} in a run (${scores.accessibilityFailing.join(', ')})`,
        ]
      : []),
    ...(scores.worstCls > CLS_GOAL
      ? [`${name}: CLS ${format(scores.worstCls, 3)} in a run (${scores.worstShifts.join(', ')})`]
      : []),
  ]);
  console.log(
    missed.length
      ? `Missed: ${missed.join('; ')}`
      : `Every run of every page: accessibility 1.0 and CLS ≤ ${CLS_GOAL}.`,
  );
  const goals = {
    ...GOALS,
    cls: CLS_GOAL,
    profileLcpMs: PROFILE_LCP_GOAL_MS,
    profileTbtMs: PROFILE_TBT_GOAL_MS,
  };
  console.log(
    `Written to ${writeResult('lighthouse', { runs: RUNS, loadAverage: { before: loadBefore, after: loadAfter }, goals, pages })}`,
  );
  const markdown = [
    '# Lighthouse',
    '',
    `${new Date().toISOString()}, ${machine().cpu} (${machine().cores} cores), Node ${machine().node}.`,
    `Lighthouse 12, mobile, default simulated throttling; ${RUNS} runs per page, the median run by`,
    `performance shown. Load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}.`,
    `Host CPU as Lighthouse measured it (benchmarkIndex, median of every run; higher is faster): ${format(medianOf(Object.values(pages).flatMap((page) => page.benchmarkIndexes)))}.`,
    '`npx tsx bench/lighthouse.ts`',
    '',
    ...rows.map((row, index) =>
      index === 0
        ? `| ${row.join(' | ')} |\n|${row.map(() => ' --- ').join('|')}|`
        : `| ${row.join(' | ')} |`,
    ),
    '',
    `Goals: performance ≥ ${GOALS.performance}, accessibility 1.0,`,
    `best practices 1.0, CLS ≤ ${CLS_GOAL}; the profile LCP ≤ ${PROFILE_LCP_GOAL_MS} ms, TBT ≤ ${PROFILE_TBT_GOAL_MS} ms.`,
    `Medians of the runs: profile LCP ${format(profile.medianLcpMs)} ms, TBT ${format(profile.medianTbtMs)} ms;`,
    `/landing LCP ${format(landing.medianLcpMs)} ms, TBT ${format(landing.medianTbtMs)} ms.`,
    '',
    '## Audits that still lose points (median run)',
    '',
    ...(below.length || profileMisses.length
      ? [...below, ...profileMisses].map((line) => `- ${line}`)
      : ['None: every page meets its goals.']),
    ...(missed.length ? ['', `Missed in a run: ${missed.join('; ')}`] : []),
    '',
    '## Where the time goes (median run)',
    '',
    ...Object.entries(pages).flatMap(([name, scores]) => [
      `- ${name} LCP phases: ${scores.lcpPhases.join(', ') || 'n/a'}`,
      `- ${name} main thread by script: ${scores.scripts.join(', ') || 'n/a'}`,
    ]),
    '',
  ].join('\n');
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'lighthouse.md'), markdown);
  if (missed.length) process.exitCode = 1;
} finally {
  await browser.context.close();
  fs.rmSync(browser.dir, { recursive: true, force: true });
  await server.stop();
}
