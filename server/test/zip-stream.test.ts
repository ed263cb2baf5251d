/**
 * The zip written as it is read (server/src/lib/zipStream.ts): one source open at a time, a failure
 * that breaks the archive instead of ending it, and a reader that takes nothing given up.
 */
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { type ZipEntry, generatedEntry, textEntry, zipStream } from '../src/lib/zipStream.ts';
import { unzip } from './unzip.ts';

/** Entries of `count` sources of `bytes` random bytes each, recording what is open when. */
function sources(count: number, bytes: number) {
  const opened: Readable[] = [];
  let mostOpenAtOnce = 0;
  const entries: ZipEntry[] = Array.from({ length: count }, (_, index) => ({
    name: `part-${index}.bin`,
    compress: false,
    open() {
      const stream = Readable.from([randomBytes(bytes)]);
      opened.push(stream);
      const open = opened.filter((one) => !one.readableEnded && !one.destroyed).length;
      mostOpenAtOnce = Math.max(mostOpenAtOnce, open);
      return Promise.resolve(stream);
    },
  }));
  return { entries, opened, mostOpenAtOnce: () => mostOpenAtOnce };
}

async function* each<T>(items: readonly T[]) {
  for (const item of items) yield await Promise.resolve(item);
}

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('zipStream', () => {
  it('writes every entry in order, with one source open at a time', async () => {
    const parts = sources(20, 200_000);
    const entries = [
      textEntry('README.txt', 'hello'),
      generatedEntry('list.json', async function* () {
        yield await Promise.resolve('[1,');
        yield '2]';
      }),
      ...parts.entries,
    ];

    const archive = await read(zipStream(each(entries), { onFailure: () => undefined }));

    const names = unzip(archive).map((entry) => entry.name);
    expect(names).toEqual(entries.map((entry) => entry.name));
    expect(unzip(archive)[1]?.data.toString()).toBe('[1,2]');
    expect(parts.mostOpenAtOnce()).toBe(1);
  });

  it('leaves out an entry that opens to nothing', async () => {
    const entries: ZipEntry[] = [
      textEntry('a.txt', 'a'),
      { name: 'gone.bin', compress: false, open: () => Promise.resolve(undefined) },
      textEntry('b.txt', 'b'),
    ];

    const archive = await read(zipStream(each(entries), { onFailure: () => undefined }));

    expect(unzip(archive).map((entry) => entry.name)).toEqual(['a.txt', 'b.txt']);
  });

  it('breaks the archive when a source fails, and says why', async () => {
    const onFailure = vi.fn();
    const failing = new Readable({ read() {} });
    failing.push(randomBytes(10_000));
    setTimeout(() => failing.destroy(new Error('EIO')), 20);
    const entries: ZipEntry[] = [
      textEntry('a.txt', 'a'),
      { name: 'broken.bin', compress: false, open: () => Promise.resolve(failing) },
      textEntry('never.txt', 'never'),
    ];

    await expect(read(zipStream(each(entries), { onFailure }))).rejects.toThrow('EIO');
    expect(onFailure).toHaveBeenCalledWith(expect.objectContaining({ message: 'EIO' }));
  });

  /** An archive of `count` sources of `size` bytes that gives up after `idleMs` without a read. */
  const watchedArchive = (count: number, size: number, idleMs: number) => {
    const parts = sources(count, size);
    const onAbort = vi.fn();
    const archive = zipStream(each(parts.entries), { onFailure: () => undefined, onAbort, idleMs });
    return { parts, onAbort, archive };
  };

  it('gives up when the reader takes nothing for the idle time, closing the open source', async () => {
    const { parts, onAbort, archive } = watchedArchive(30, 500_000, 200);
    // One chunk, then nothing more is taken.
    archive.once('data', () => archive.pause());

    await vi.waitFor(() => expect(onAbort).toHaveBeenCalledWith('stalled'), { timeout: 3_000 });
    expect(archive.destroyed).toBe(true);
    await vi.waitFor(() => expect(parts.opened.every((one) => one.destroyed)).toBe(true));
    expect(parts.opened.length).toBeLessThan(5);
  });

  it('keeps going for a reader that is slow but keeps taking', async () => {
    const { onAbort, archive } = watchedArchive(6, 100_000, 300);
    const chunks: Buffer[] = [];
    for await (const chunk of archive) {
      chunks.push(chunk as Buffer);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    expect(unzip(Buffer.concat(chunks))).toHaveLength(6);
    expect(onAbort).not.toHaveBeenCalled();
  });

  it('stops opening sources once the reader goes away', async () => {
    const parts = sources(30, 500_000);
    const onAbort = vi.fn();
    const archive = zipStream(each(parts.entries), { onFailure: () => undefined, onAbort });
    archive.once('data', () => archive.destroy());

    await vi.waitFor(() => expect(onAbort).toHaveBeenCalledWith('client'));
    await vi.waitFor(() => expect(parts.opened.every((one) => one.destroyed)).toBe(true));
    const opened = parts.opened.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(parts.opened).toHaveLength(opened);
    expect(opened).toBeLessThan(5);
  });
});
