import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { TooLarge, UnsupportedMedia } from '../errors.ts';

/** Formats decided by the file's content, never its name or declared type. */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);
/** Refuses decompression bombs before any pixels are decoded (about 50 megapixels). */
export const MAX_INPUT_PIXELS = 50_000_000;
export const NOT_AN_IMAGE =
  'That file is not a supported image. Use JPEG, PNG, WebP, GIF, AVIF or HEIC.';
export const DAMAGED_IMAGE = 'That image is damaged or incomplete.';
export const TOO_MANY_PIXELS = 'That image has too many pixels (max 50 megapixels).';

export async function assertSupportedImage(input: Buffer | string): Promise<Metadata> {
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
 * Re-encodes a profile picture: orientation applied, square 512 px WebP, every metadata block
 * (EXIF, GPS, XMP, ICC) dropped. Answers the path under the uploads directory.
 */
export async function storeAvatar(input: Buffer, uploadsDir: string): Promise<string> {
  await assertSupportedImage(input);
  let output: Buffer;
  try {
    output = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
      .rotate()
      .resize(512, 512, { fit: 'cover', position: 'attention' })
      .webp({ quality: 82 })
      .toBuffer();
  } catch {
    throw new UnsupportedMedia(NOT_AN_IMAGE);
  }
  const relative = `avatars/${randomBytes(16).toString('hex')}.webp`;
  await writeAtomically(path.join(uploadsDir, relative), output);
  return relative;
}

/** Writes under a temporary name and renames, so a crash never leaves a half-written file served. */
export async function writeAtomically(target: string, data: Buffer): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temp = `${target}.${randomBytes(6).toString('hex')}.partial`;
  await fs.writeFile(temp, data);
  await fs.rename(temp, target);
}

export async function removeUpload(uploadsDir: string, relative: string): Promise<void> {
  if (!relative) return;
  const target = path.resolve(uploadsDir, relative);
  if (!target.startsWith(path.resolve(uploadsDir) + path.sep)) return;
  await fs.rm(target, { force: true });
}

export interface StoredGalleryImage {
  displayFile: string;
  thumbFile: string;
  width: number;
  height: number;
  bytes: number;
}

const DISPLAY_EDGE = 1600;
const THUMB_EDGE = 480;
export const GALLERY_DIR = 'gallery';

/**
 * A gallery upload becomes two WebP files under uploads/gallery/ with random names: a display size
 * for the viewer and a thumbnail for the grids. Orientation is applied and no metadata survives.
 * Nothing is visible under its final name until it is complete.
 */
export async function storeGalleryImage(
  input: string,
  uploadsDir: string,
): Promise<StoredGalleryImage> {
  await assertSupportedImage(input);
  const base = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
  let display: { data: Buffer; info: OutputInfo };
  let thumb: Buffer;
  try {
    [display, thumb] = await Promise.all([
      base
        .clone()
        .resize(DISPLAY_EDGE, DISPLAY_EDGE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer({ resolveWithObject: true }),
      base
        .clone()
        .resize(THUMB_EDGE, THUMB_EDGE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 70 })
        .toBuffer(),
    ]);
  } catch {
    throw new UnsupportedMedia(DAMAGED_IMAGE);
  }
  const name = randomBytes(16).toString('hex');
  const displayFile = `${name}.webp`;
  const thumbFile = `${name}-thumb.webp`;
  const dir = path.join(uploadsDir, GALLERY_DIR);
  await writeAtomically(path.join(dir, displayFile), display.data);
  try {
    await writeAtomically(path.join(dir, thumbFile), thumb);
  } catch (error) {
    await fs.rm(path.join(dir, displayFile), { force: true });
    throw error;
  }
  return {
    displayFile,
    thumbFile,
    width: display.info.width,
    height: display.info.height,
    bytes: display.data.length + thumb.length,
  };
}
