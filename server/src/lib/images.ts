import { randomBytes } from 'node:crypto';
import sharp, { type Metadata, type OutputInfo } from 'sharp';
import { TooLarge, UnsupportedMedia } from '../errors.ts';
import type { MediaFile } from '../media/files.ts';
import { AVATAR_PREFIX, WEBP, galleryKey } from '../media/store.ts';

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
 * (EXIF, GPS, XMP, ICC) dropped, under a new random key in avatars/.
 */
export async function avatarFile(input: Buffer): Promise<MediaFile> {
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
export async function galleryFiles(input: string): Promise<GalleryFiles> {
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
