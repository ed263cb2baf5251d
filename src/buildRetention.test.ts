// @vitest-environment node
/**
 * A build keeps the hashed files of the builds before it for KEEP_REPLACED_ASSETS_DAYS after they
 * were replaced, then removes them (docs/deploy.md "Upgrades").
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KEEP_REPLACED_ASSETS_DAYS, retireReplacedAssets } from '../vite.config.ts';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28);
let outDir = '';

function folder(files: string[], replaced: Record<string, number> = {}) {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orbit-retention-'));
  fs.mkdirSync(path.join(outDir, 'assets'));
  fs.mkdirSync(path.join(outDir, '.vite'));
  for (const file of files) fs.writeFileSync(path.join(outDir, file), file);
  fs.writeFileSync(path.join(outDir, '.vite', 'replaced.json'), JSON.stringify(replaced));
}
const files = () => fs.readdirSync(path.join(outDir, 'assets')).sort();
const record = () =>
  JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'replaced.json'), 'utf8')) as Record<
    string,
    number
  >;

afterEach(() => fs.rmSync(outDir, { recursive: true, force: true }));

describe('the previous builds’ hashed files', () => {
  it('stay, with the time they were replaced, while the new build’s own are not recorded', () => {
    folder(['assets/index-new.js', 'assets/index-new.js.map', 'assets/index-old.js']);
    retireReplacedAssets(outDir, new Set(['assets/index-new.js']), NOW);
    expect(files()).toEqual(['index-new.js', 'index-new.js.map', 'index-old.js']);
    expect(record()).toEqual({ 'assets/index-old.js': NOW });
  });

  it(`go ${KEEP_REPLACED_ASSETS_DAYS} days after the build that replaced them, not before`, () => {
    const limit = KEEP_REPLACED_ASSETS_DAYS * DAY;
    folder(['assets/expired.js', 'assets/expired.js.map', 'assets/recent.js', 'assets/now.js'], {
      'assets/expired.js': NOW - limit - 1,
      'assets/expired.js.map': NOW - limit - 1,
      'assets/recent.js': NOW - limit,
    });
    retireReplacedAssets(outDir, new Set(['assets/now.js']), NOW);
    expect(files()).toEqual(['now.js', 'recent.js']);
    expect(record()).toEqual({ 'assets/recent.js': NOW - limit });
  });

  it('count from when they were first replaced, however many builds follow', () => {
    folder(['assets/a.js', 'assets/b.js']);
    retireReplacedAssets(outDir, new Set(['assets/b.js']), NOW);
    retireReplacedAssets(outDir, new Set(['assets/b.js']), NOW + DAY);
    expect(record()).toEqual({ 'assets/a.js': NOW });
  });
});
