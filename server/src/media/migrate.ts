/**
 * `npm run media:migrate`: copies the pictures of a disk store (DATA_DIR/uploads/gallery and
 * DATA_DIR/uploads/avatars) into the bucket that S3_BUCKET and the other S3_* settings name.
 * A picture already in the bucket with the same size is skipped, so the copy can be stopped and
 * run again at any time, and a second run copies nothing. It never removes anything, from the
 * folder or the bucket. Exits with 1 when any copy failed, 2 when the settings are wrong.
 */
import fs from 'node:fs';
import { loadConfig } from '../config.ts';
import { DiskStore } from './disk.ts';
import { MEDIA_PREFIXES, type MediaListing, contentTypeOf, isMediaKey } from './store.ts';

/** Copies in flight at once. */
const CONCURRENCY = 4;
const TTY_REFRESH_MS = 100;
const PLAIN_EVERY_MS = 5_000;

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/** One line on a terminal, redrawn in place; plain lines now and then anywhere else. */
class Progress {
  private readonly began = Date.now();
  private last = 0;
  done = 0;
  failed = 0;
  bytes = 0;

  constructor(
    private readonly total: number,
    private readonly totalBytes: number,
    private readonly tty: boolean,
  ) {}

  private line(): string {
    const seconds = Math.max((Date.now() - this.began) / 1000, 0.001);
    const rate = `${formatBytes(this.bytes / seconds)}/s`;
    const counts = `${this.done}/${this.total} pictures, ${formatBytes(this.bytes)} of ${formatBytes(this.totalBytes)}, ${rate}`;
    const failures = this.failed > 0 ? `, ${this.failed} failed` : '';
    if (!this.tty) return `copied ${counts}${failures}`;
    const width = 24;
    const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
    return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${counts}${failures}`;
  }

  update(force = false): void {
    const now = Date.now();
    if (!force && now - this.last < (this.tty ? TTY_REFRESH_MS : PLAIN_EVERY_MS)) return;
    this.last = now;
    if (this.tty) process.stdout.write(`\r\x1b[2K${this.line()}`);
    else console.log(this.line());
  }

  finish(): void {
    if (this.tty) process.stdout.write(`\r\x1b[2K${this.line()}\n`);
  }

  get seconds(): number {
    return (Date.now() - this.began) / 1000;
  }
}

async function main(): Promise<number> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
  if (!config.media.s3) {
    console.error(
      'S3_BUCKET is not set. Set S3_BUCKET (and S3_ENDPOINT, S3_REGION, credentials as needed) to the bucket to copy the pictures into.',
    );
    return 2;
  }
  if (!fs.existsSync(config.uploadsDir)) {
    console.log(`Nothing to copy: ${config.uploadsDir} does not exist.`);
    return 0;
  }
  const source = new DiskStore(config.uploadsDir);
  const { S3Store } = await import('./s3.ts');
  const target = new S3Store(config.media.s3);
  try {
    try {
      await target.check();
    } catch (error) {
      console.error(error instanceof Error ? error.message : String(error));
      return 1;
    }

    const present = new Map<string, number>();
    for (const prefix of MEDIA_PREFIXES)
      for await (const item of target.list(prefix)) present.set(item.key, item.size);

    const todo: MediaListing[] = [];
    let already = 0;
    let ignored = 0;
    for (const prefix of MEDIA_PREFIXES) {
      for await (const item of source.list(prefix)) {
        if (!isMediaKey(item.key)) ignored += 1;
        else if (present.get(item.key) === item.size) already += 1;
        else todo.push(item);
      }
    }
    todo.sort((a, b) => a.key.localeCompare(b.key));
    const totalBytes = todo.reduce((sum, item) => sum + item.size, 0);
    console.log(
      `Copying ${count(todo.length, 'picture', 'pictures')} (${formatBytes(totalBytes)}) from ${config.uploadsDir} to bucket "${config.media.s3.bucket}"; ${already} already there.`,
    );
    if (todo.length > 0)
      console.log('Stopping is safe: a second run copies only what is still missing.');

    const progress = new Progress(todo.length, totalBytes, process.stdout.isTTY === true);
    const failures: { key: string; reason: string }[] = [];
    let next = 0;
    const worker = async () => {
      for (let item = todo[next++]; item; item = todo[next++]) {
        try {
          const read = await source.get(item.key);
          if (read.status !== 'found') throw new Error('the file is gone');
          await target.put(item.key, read.body, contentTypeOf(item.key));
          progress.done += 1;
          progress.bytes += item.size;
        } catch (error) {
          progress.failed += 1;
          failures.push({
            key: item.key,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
        progress.update();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    progress.finish();

    for (const failure of failures.slice(0, 20))
      console.error(`  failed: ${failure.key}: ${failure.reason}`);
    if (failures.length > 20) console.error(`  … and ${failures.length - 20} more`);
    console.log(
      `Done in ${progress.seconds.toFixed(1)} s: ${progress.done} copied (${formatBytes(progress.bytes)}), ` +
        `${already} already in the bucket, ${failures.length} failed` +
        (ignored > 0
          ? `, ${count(ignored, 'file', 'files')} skipped that ${ignored === 1 ? 'is not a picture' : 'are not pictures'} Orbit made`
          : '') +
        '.',
    );
    if (failures.length > 0) {
      console.error(
        'Some pictures were not copied. Run npm run media:migrate again to retry them.',
      );
      return 1;
    }
    return 0;
  } finally {
    target.close();
  }
}

process.exitCode = await main();
