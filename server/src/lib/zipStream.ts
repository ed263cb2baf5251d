/**
 * A zip archive written as it is read (yazl): entries are opened one at a time, in order, and the
 * next only once the one before has been read to its end, so at most one source is open and no
 * entry is ever held whole. The archive stream is what a reply sends.
 */
import { Readable, Transform, pipeline } from 'node:stream';
import { finished } from 'node:stream/promises';
import { ZipFile } from 'yazl';

export interface ZipEntry {
  /** The path inside the archive. */
  name: string;
  /**
   * Opens the entry's bytes when its turn comes; undefined leaves the entry out. A rejection, or
   * an error of the stream it gives, fails the whole archive.
   */
  open(): Promise<Readable | undefined>;
  /** Deflate it (text); pictures are stored as they are, already compressed. */
  compress: boolean;
  mtime?: Date;
}

export interface ZipOptions {
  /** A source failed: the archive stream has been destroyed with this error, so it is never complete. */
  onFailure(error: unknown): void;
  /**
   * The archive stopped before its end: whoever read it went away (`client`: the stream was
   * destroyed from outside), or took nothing of what was ready for `idleMs` (`stalled`: the
   * stream has been destroyed here).
   */
  onAbort?(reason: 'client' | 'stalled'): void;
  /** How long a reader may leave ready bytes untaken before the archive is given up. */
  idleMs?: number;
}

/**
 * The archive of `entries`. A failure of any source destroys the archive stream with the error,
 * so whoever reads it sees it break rather than end: a truncated archive never looks complete.
 * Destroying the archive stream from outside (a client that went away) stops reading the sources.
 */
export function zipStream(entries: AsyncIterable<ZipEntry>, options: ZipOptions): Readable {
  const zip = new ZipFile();
  // yazl's output is a PassThrough; its typings say only "readable stream".
  const output = zip.outputStream as unknown as Readable;
  // What the reader takes passes here: the last time it did is when the reader last made room.
  let taken = Date.now();
  const archive = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      taken = Date.now();
      done(null, chunk);
    },
  });
  let current: Readable | undefined;
  let stopped = false;
  let watch: NodeJS.Timeout | undefined;

  const stop = () => {
    stopped = true;
    clearInterval(watch);
    current?.destroy();
  };
  const fail = (error: unknown) => {
    if (stopped) return;
    stop();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
    options.onFailure(error);
  };
  zip.on('error', fail);
  // Destroying one end destroys the other: a reader that goes away stops the archive, a failure
  // reaches the reader.
  pipeline(output, archive, () => undefined);
  output.on('close', () => {
    if (stopped) return;
    stop();
    if (!output.readableEnded) options.onAbort?.('client');
  });
  if (options.idleMs) {
    const idleMs = options.idleMs;
    watch = setInterval(() => {
      if (archive.readableLength === 0 || Date.now() - taken < idleMs) return;
      stop();
      options.onAbort?.('stalled');
      archive.destroy();
    }, idleMs / 4);
    watch.unref();
  }

  void (async () => {
    try {
      for await (const entry of entries) {
        if (stopped) return;
        const source = await entry.open();
        if (stopped) {
          source?.destroy();
          return;
        }
        if (!source) continue;
        current = source;
        zip.addReadStream(source, entry.name, {
          compress: entry.compress,
          ...(entry.mtime ? { mtime: entry.mtime } : {}),
        });
        await finished(source);
        current = undefined;
      }
      if (!stopped) zip.end();
    } catch (error) {
      fail(error);
    }
  })();
  archive.on('end', () => clearInterval(watch));
  return archive;
}

/** An entry whose bytes are text made now. */
export function textEntry(name: string, text: string, mtime?: Date): ZipEntry {
  return {
    name,
    compress: true,
    ...(mtime ? { mtime } : {}),
    open: () => Promise.resolve(Readable.from([Buffer.from(text, 'utf8')])),
  };
}

/** An entry whose text comes from an async generator, read as the archive reaches it. */
export function generatedEntry(
  name: string,
  chunks: () => AsyncIterable<string>,
  mtime?: Date,
): ZipEntry {
  return {
    name,
    compress: true,
    ...(mtime ? { mtime } : {}),
    open: () => Promise.resolve(Readable.from(chunks(), { objectMode: false })),
  };
}
