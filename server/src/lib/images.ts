import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import sharp, { type Metadata, type OutputInfo, type Sharp } from 'sharp';
import { BUSY, TooLarge, Unavailable, UnsupportedMedia } from '../errors.ts';
import type { MediaFile } from '../media/files.ts';
import { AVATAR_PREFIX, WEBP, galleryKey } from '../media/store.ts';

/** Formats decided by the file's content, never its name or declared type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);
/** Refuses decompression bombs before any pixels are decoded (about 50 megapixels). */
const MAX_INPUT_PIXELS = 50_000_000;
const NOT_AN_IMAGE = 'That file is not a supported image. Use JPEG, PNG, WebP, GIF, AVIF or HEIC.';
const DAMAGED_IMAGE = 'That image is damaged or incomplete.';
const TOO_MANY_PIXELS = 'That image has too many pixels (max 50 megapixels).';

// One libvips thread per picture: pictures run side by side through the queue below instead, each
// holding one thread of libuv's pool, so the pool keeps threads for logins (argon2) and files.
sharp.concurrency(1);

/** When to try again after BUSY: a picture takes about a second, and the queue moves. */
const BUSY_RETRY_SECONDS = 5;

/**
 * Every picture Orbit makes goes through one queue: `workers` at a time, at most `waiting` more
 * in line; one more is refused with 503 BUSY at once instead of waiting without end.
 */
export interface ImageQueue {
  run<T>(job: () => Promise<T>): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

/** libuv's pool (UV_THREADPOOL_SIZE, 4 unless set): the threads file reads, argon2 and sharp share. */
function threadPoolSize(): number {
  const size = Number(process.env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? size : 4;
}

/** One worker per core, leaving two threads of libuv's pool free for everything else. */
export function defaultImageWorkers(): number {
  return Math.max(1, Math.min(os.availableParallelism(), threadPoolSize() - 2));
}

export function createImageQueue(options: { workers: number; waiting: number }): ImageQueue {
  const limit = pLimit(options.workers);
  return {
    run(job) {
      if (limit.activeCount + limit.pendingCount >= options.workers + options.waiting)
        return Promise.reject(
          new Unavailable(BUSY, {
            retryAfterSeconds: BUSY_RETRY_SECONDS,
            log: { level: 'warn', reason: 'picture queue full; upload refused' },
          }),
        );
      return limit(job);
    },
    get active() {
      return limit.activeCount;
    },
    get waiting() {
      return limit.pendingCount;
    },
  };
}

/** heic-decode (libheif in WebAssembly), found where the server runs: sources, bundle or tests. */
const HEIC_DECODER = createRequire(import.meta.url).resolve('heic-decode');

/**
 * Decodes one HEVC picture to RGBA in a thread of its own, which ends with it: the decoder runs
 * for about a second on a 12 MP photo and would hold the event loop that long, and the
 * WebAssembly memory it grows to (some 100 MB) is given back when the thread ends.
 */
const HEIC_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
require(workerData.decoder)({ buffer: workerData.buffer }).then(({ width, height, data }) =>
  parentPort.postMessage({ width, height, data }, [data.buffer]),
);
`;

interface Rgba {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

function decodeHeic(buffer: Buffer): Promise<Rgba> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(HEIC_THREAD, {
      eval: true,
      workerData: { decoder: HEIC_DECODER, buffer },
      // libheif prints why a picture failed; the refusal says it to the member instead.
      stdout: true,
      stderr: true,
    });
    worker.once('message', (image: Rgba) => {
      resolve(image);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', () => reject(new Error('the HEIC decoder ended without a picture')));
  });
}

/**
 * The picture to resize, turned the way it is meant to be seen. The prebuilt sharp reads a HEIC's
 * header but has no HEVC decoder (an iPhone's photos, and what a Mac's Photos exports), so those
 * are decoded by libheif first, which applies the file's rotation and mirroring itself; the raw
 * pixels carry no metadata at all. Every other format sharp decodes and turns by its EXIF.
 */
async function decodedImage(input: Buffer | string, metadata: Metadata): Promise<Sharp> {
  if (metadata.format === 'heif' && metadata.compression === 'hevc') {
    let image: Rgba;
    try {
      image = await decodeHeic(typeof input === 'string' ? await fs.readFile(input) : input);
    } catch {
      throw new UnsupportedMedia(DAMAGED_IMAGE);
    }
    const { width, height, data } = image;
    return sharp(Buffer.from(data.buffer, data.byteOffset, data.byteLength), {
      raw: { width, height, channels: 4 },
    });
  }
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
}

async function assertSupportedImage(input: Buffer | string): Promise<Metadata> {
  let metadata: Metadata;
  try {
    // The header alone is read here, so no pixel limit: with one, sharp refuses an oversized canvas
    // with an error that would read as "not an image" instead of the 413 below.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new UnsupportedMedia(NOT_AN_IMAGE);
  }
  if (!metadata.format || !ACCEPTED_FORMATS.has(metadata.format))
    throw new UnsupportedMedia(NOT_AN_IMAGE);
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_INPUT_PIXELS)
    throw new TooLarge(TOO_MANY_PIXELS);
  return metadata;
}

/**
 * Re-encodes a profile picture (a file, or the seed's bytes): orientation applied, square 512 px
 * WebP, every metadata block (EXIF, GPS, XMP, ICC) dropped, under a new random key in avatars/.
 */
export function avatarFile(queue: ImageQueue, input: string | Buffer): Promise<MediaFile> {
  return queue.run(() => makeAvatar(input));
}

async function makeAvatar(input: string | Buffer): Promise<MediaFile> {
  const image = await decodedImage(input, await assertSupportedImage(input));
  let output: Buffer;
  try {
    output = await image
      .resize(512, 512, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new UnsupportedMedia(NOT_AN_IMAGE);
  }
  return {
    key: `${AVATAR_PREFIX}${randomBytes(16).toString('hex')}.webp`,
    body: output,
    contentType: WEBP,
  };
}

export interface GalleryFiles {
  /** The names a gallery row keeps (the keys without gallery/). */
  displayFile: string;
  thumbFile: string;
  display: MediaFile;
  thumb: MediaFile;
  width: number;
  height: number;
  bytes: number;
}

const DISPLAY_EDGE = 1600;
const THUMB_EDGE = 480;

/**
 * A gallery upload becomes two WebP pictures with one random name: a display size for the viewer
 * and a thumbnail for the grids. Orientation is applied and no metadata survives.
 */
export function galleryFiles(queue: ImageQueue, input: string): Promise<GalleryFiles> {
  return queue.run(() => makeGalleryFiles(input));
}

/**
 * One after the other, so a picture holds one thread at a time: the upload is decoded once into
 * the display size, and the thumbnail is made from that (small) display picture.
 */
async function makeGalleryFiles(input: string): Promise<GalleryFiles> {
  const image = await decodedImage(input, await assertSupportedImage(input));
  let display: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    display = await image
      .resize(DISPLAY_EDGE, DISPLAY_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    thumb = await sharp(display.data)
      .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 70 })
      .toBuffer();
  } catch {
    throw new UnsupportedMedia(DAMAGED_IMAGE);
  }
  const name = randomBytes(16).toString('hex');
  const displayFile = `${name}.webp`;
  const thumbFile = `${name}-thumb.webp`;
  return {
    displayFile,
    thumbFile,
    display: { key: galleryKey(displayFile), body: display.data, contentType: WEBP },
    thumb: { key: galleryKey(thumbFile), body: thumb, contentType: WEBP },
    width: display.info.width,
    height: display.info.height,
    bytes: display.data.length + thumb.length,
  };
}
