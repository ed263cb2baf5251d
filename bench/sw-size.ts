/**
 * The service worker's size (bytes and gzip -9) and the total size of what it precaches, read from
 * the precache manifest injected into the built sw.js. `npx tsx bench/sw-size.ts`
 * (`BENCH_STATIC_DIR=<build>` measures an existing build instead of building one.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { table, writeResult } from './common.ts';
import { appBuild } from './pwa-fixtures.ts';

interface PrecacheEntry {
  url: string;
  revision: string | null;
}

const gzipSize = (data: Uint8Array) => gzipSync(data, { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

/** The manifest workbox injected in place of `self.__WB_MANIFEST`: a JSON array of entries. */
function precacheManifest(worker: string): PrecacheEntry[] {
  const match = /\[\{"(?:revision|url)":[^\]]*\]/.exec(worker);
  if (!match) throw new Error('no precache manifest found in sw.js');
  return JSON.parse(match[0]) as PrecacheEntry[];
}

/** URLs listed more than once (the browser still fetches and stores each only once). */
function listedTwice(entries: readonly PrecacheEntry[]): string[] {
  const counts = new Map<string, number>();
  for (const { url } of entries) counts.set(url, (counts.get(url) ?? 0) + 1);
  return [...counts].filter(([, count]) => count > 1).map(([url]) => url);
}

function measure(buildDir: string) {
  const worker = fs.readFileSync(path.join(buildDir, 'sw.js'));
  const manifest = precacheManifest(worker.toString('utf8'));
  const entries = [...new Set(manifest.map((entry) => entry.url))].map((url) => {
    const body = fs.readFileSync(path.join(buildDir, url));
    return { url, bytes: body.length, gzip: gzipSize(body) };
  });
  const sum = (key: 'bytes' | 'gzip') => entries.reduce((total, entry) => total + entry[key], 0);
  return {
    worker: { bytes: worker.length, gzip: gzipSize(worker) },
    precache: {
      entries: entries.length,
      bytes: sum('bytes'),
      gzip: sum('gzip'),
      listedTwice: listedTwice(manifest),
    },
    files: entries.sort((a, b) => b.bytes - a.bytes),
  };
}

const build = await appBuild('orbit-bench-sw-size-');
try {
  const result = measure(build.dir);
  console.log('\nLargest precached files');
  console.log(
    table([
      ['file', 'bytes', 'gzip -9'],
      ...result.files.slice(0, 10).map((file) => [file.url, kb(file.bytes), kb(file.gzip)]),
    ]),
  );
  console.log('\nTotals');
  console.log(
    table([
      ['', 'bytes', 'gzip -9'],
      ['sw.js', kb(result.worker.bytes), kb(result.worker.gzip)],
      [
        `precache (${result.precache.entries} files)`,
        kb(result.precache.bytes),
        kb(result.precache.gzip),
      ],
    ]),
  );
  if (result.precache.listedTwice.length > 0)
    console.log(`Listed twice in the precache manifest: ${result.precache.listedTwice.join(', ')}`);
  console.log(`Written to ${writeResult('sw-size', result)}`);
} finally {
  build.remove();
}
