import { randomBytes } from 'node:crypto';
import { type Stats, constants, createWriteStream, mkdirSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type MediaInfo,
  type MediaListing,
  type MediaRead,
  type MediaStore,
  contentTypeOf,
  etagMatches,
  unlessMissing,
} from './store.ts';

const isMissing = (error: unknown) =>
  (error as { code?: unknown }).code === 'ENOENT' ||
  (error as { code?: unknown }).code === 'ENOTDIR';

/**
 * Objects as files under one folder (`DATA_DIR/uploads/<key>`), the layout Orbit has always
 * used, so an existing installation keeps its pictures as they are.
 */
export class DiskStore implements MediaStore {
  readonly kind = 'disk';
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    mkdirSync(this.root, { recursive: true });
  }

  /** The file of a key; a key that would leave the folder is refused. */
  private fileOf(key: string): string {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) throw new Error(`Not a media key: ${key}`);
    return file;
  }

  /**
   * Written under a temporary name and renamed, so a crash never leaves a half-written file
   * served. The content type follows from the key's extension when the file is read.
   */
  async put(key: string, body: Buffer | Readable, _contentType?: string): Promise<void> {
    const target = this.fileOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.partial`;
    try {
      if (Buffer.isBuffer(body)) await fs.writeFile(temp, body);
      else await pipeline(body, createWriteStream(temp));
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  private infoOf(key: string, stat: { size: number; mtime: Date; mtimeMs: number }): MediaInfo {
    return {
      size: stat.size,
      etag: `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      contentType: contentTypeOf(key),
      lastModified: stat.mtime,
    };
  }

  async stat(key: string): Promise<MediaInfo | undefined> {
    const stat = await unlessMissing(() => fs.stat(this.fileOf(key)), isMissing);
    return stat?.isFile() ? this.infoOf(key, stat) : undefined;
  }

  async get(
    key: string,
    conditions: { ifNoneMatch?: string | undefined } = {},
  ): Promise<MediaRead> {
    let handle: fs.FileHandle;
    try {
      // Opened before its size is read, so a file removed in between cannot answer half a body.
      handle = await fs.open(this.fileOf(key), 'r');
    } catch (error) {
      if (isMissing(error) || (error as { code?: unknown }).code === 'EISDIR')
        return { status: 'missing' };
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return { status: 'missing' };
      }
      const info = this.infoOf(key, stat);
      if (etagMatches(conditions.ifNoneMatch, info.etag)) {
        await handle.close();
        return { status: 'not-modified', etag: info.etag };
      }
      return { status: 'found', info, body: handle.createReadStream() };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async remove(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.rm(this.fileOf(key), { force: true })));
  }

  /**
   * Files under the prefix's folder, read as a stream of directory entries. Half-written
   * temporary files show up too: no row names them, so the sweep removes them once they are old.
   */
  async *list(prefix: string): AsyncIterable<MediaListing> {
    const slash = prefix.lastIndexOf('/');
    const dir = slash < 0 ? this.root : this.fileOf(prefix.slice(0, slash));
    const start = prefix.slice(slash + 1);
    let entries: AsyncIterable<{ name: string; isFile(): boolean }>;
    try {
      entries = await fs.opendir(dir);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const folder = slash < 0 ? '' : prefix.slice(0, slash + 1);
    for await (const entry of entries) {
      if (!entry.isFile() || !entry.name.startsWith(start)) continue;
      const stat = await fs.stat(path.join(dir, entry.name)).catch(() => undefined);
      if (!stat) continue;
      yield { key: `${folder}${entry.name}`, size: stat.size, lastModified: stat.mtime };
    }
  }

  /**
   * The folder exists and this process may write to it (a read-only mount fails too). Nothing
   * is written, so a readiness probe leaves no trace in the folder.
   */
  async check(): Promise<void> {
    let stat: Stats;
    try {
      await fs.access(this.root, constants.W_OK);
      stat = await fs.stat(this.root);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (isMissing(error)) throw new Error(`The media folder ${this.root} does not exist.`);
      throw new Error(
        `The media folder ${this.root} cannot be written to (${typeof code === 'string' ? code : String(error)}).`,
      );
    }
    if (!stat.isDirectory()) throw new Error(`The media folder ${this.root} is not a folder.`);
  }

  close(): void {}
}
