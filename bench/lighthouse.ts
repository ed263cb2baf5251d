/**
 * Lighthouse (12.x, mobile form factor, simulated throttling) on /landing and /signup, signed out,
 * and on a seeded /profile/{username} (24 photos), signed in with the session cookie in the browser
 * profile. Three runs per page; the run with the median performance score is reported, with the
 * failing audits of every category below its goal, and the worst accessibility score and CLS of
 * all runs, which must meet their goals on every run.
 * `npx tsx bench/lighthouse.ts` (`BENCH_STATIC_DIR=<build>` uses an existing build instead of
 * building one; `BENCH_RUNS=n` for another number of runs). It exits with 1 when a page misses
 * accessibility 1.0 or CLS ≤ 0.02.
 * Goals: performance ≥ 0.95, accessibility 1.0, best practices 1.0, CLS ≤ 0.02.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Result } from 'lighthouse';
import { type BrowserContext, chromium } from 'playwright-core';
import { freePort, table, writeResult } from './common.ts';
import { chromiumLaunchOptions, seedMember, serveAppBuild, sessionCookie } from './pwa-fixtures.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PHOTOS = 24;
const GOALS = { performance: 0.95, accessibility: 1, 'best-practices': 1 } as const;
/** Layout shift a member should never notice. */
const CLS_GOAL = 0.02;
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
  finalUrl: string;
}

interface AuditItem {
  node?: { snippet?: string };
  /** A console error's text (errors-in-console). */
  description?: string;
  /** A layout shift's share of CLS (layout-shifts). */
  score?: number;
}

const itemsOf = (audit: Result['audits'][string] | undefined): AuditItem[] =>
  (audit?.details as { items?: AuditItem[] } | undefined)?.items ?? [];

/** Up to three page elements (their HTML) or console errors an audit points at, to find what failed. */
function offendingNodes(audit: Result['audits'][string]): string[] {
  const consoleErrors = audit.id === 'errors-in-console';
  return itemsOf(audit)
    .map((item) => item.node?.snippet ?? (consoleErrors ? item.description : undefined))
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

function scoresOf(lhr: Result): PageScores {
  const scores = Object.fromEntries(
    CATEGORIES.map((category) => [category, lhr.categories[category]?.score ?? 0]),
  ) as Record<CategoryId, number>;
  const failing: PageScores['failing'] = {};
  for (const category of CATEGORIES)
    if (scores[category] < GOALS[category]) failing[category] = failingAudits(lhr, category);
  return {
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    shifts: layoutShifts(lhr),
    failing,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

async function audit(url: string, port: number): Promise<PageScores> {
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
  return scoresOf(result.lhr);
}

/** Audits `url` RUNS times; answers the run with the median performance score, and all scores. */
async function auditPage(url: string, port: number) {
  const runs: PageScores[] = [];
  for (let run = 1; run <= RUNS; run++) {
    runs.push(await audit(url, port));
    console.log(`${url} run ${run}: performance ${runs.at(-1)?.scores.performance}`);
  }
  const sorted = [...runs].sort((a, b) => a.scores.performance - b.scores.performance);
  const median = sorted[Math.floor(sorted.length / 2)];
  if (!median) throw new Error('no Lighthouse run');
  return {
    ...median,
    performanceRuns: runs.map((run) => run.scores.performance),
    worstAccessibility: Math.min(...runs.map((run) => run.scores.accessibility)),
    worstCls: Math.max(...runs.map((run) => run.cls)),
    worstShifts: [...runs].sort((a, b) => b.cls - a.cls)[0]?.shifts ?? [],
    // The goals hold on every run, so any run that missed one says why.
    accessibilityFailing: [...new Set(runs.flatMap((run) => run.failing.accessibility ?? []))],
  };
}

/** Chromium with a normal profile that Lighthouse drives through its debugging port. */
async function launchBrowser(): Promise<{ context: BrowserContext; port: number; dir: string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-bench-lighthouse-'));
  const context = await chromium.launchPersistentContext(dir, {
    ...chromiumLaunchOptions,
    args: [...chromiumLaunchOptions.args, `--remote-debugging-port=${port}`],
  });
  return { context, port, dir };
}

const format = (value: number, digits = 0) => value.toFixed(digits);

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

  const pages = { '/landing': landing, '/signup': signup, '/profile/{username}': profile };
  console.log(`\nLighthouse ${RUNS} runs per page, mobile; the median run by performance`);
  console.log(
    table([
      ['page', 'performance', 'accessibility', 'best practices', 'LCP', 'TBT', 'CLS', 'worst CLS'],
      ...Object.entries(pages).map(([name, scores]) => [
        name,
        format(scores.scores.performance, 2),
        format(scores.scores.accessibility, 2),
        format(scores.scores['best-practices'], 2),
        `${format(scores.lcpMs)} ms`,
        `${format(scores.tbtMs)} ms`,
        format(scores.cls, 3),
        format(scores.worstCls, 3),
      ]),
    ]),
  );
  for (const [name, scores] of Object.entries(pages))
    for (const [category, audits] of Object.entries(scores.failing))
      console.log(`${name} ${category} below its goal: ${audits.join(', ')}`);
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
  console.log(
    `Written to ${writeResult('lighthouse', { runs: RUNS, goals: { ...GOALS, cls: CLS_GOAL }, pages })}`,
  );
  if (missed.length) process.exitCode = 1;
} finally {
  await browser.context.close();
  fs.rmSync(browser.dir, { recursive: true, force: true });
  await server.stop();
}
