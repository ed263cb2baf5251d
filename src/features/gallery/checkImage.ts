/**
 * What the browser checks before a file is sent: its size, and that it really is a picture, by
 * decoding it. A renamed text file is refused here, so it never reaches the server nor shows a
 * broken preview.
 */
import { MAX_UPLOAD_BYTES } from '../../contracts/constants.ts';

/**
 * Types the server may read although many browsers cannot decode them (docs/decisions.md "Uploads are checked and cleaned": HEIC
 * where the image library reads it). Such a file is sent anyway and the server decides.
 */
const SERVER_DECIDES = /\.(heic|heif|hif|avif)$/i;
const SERVER_DECIDES_TYPES = /^image\/(heic|heif|heic-sequence|heif-sequence|avif)$/i;

export const tooLarge = (file: File) => file.size > MAX_UPLOAD_BYTES;

export const rejectedTooLarge = (name: string) => `Rejected ${name}: >20MB`;
const rejectedNotImage = (name: string) => `Rejected ${name}: not a supported image`;

/** Decodes through an <img>, for browsers without createImageBitmap. */
function imgDecodes(file: Blob): Promise<boolean> {
  const url = URL.createObjectURL(file);
  const img = new Image();
  img.src = url;
  return img
    .decode()
    .then(
      () => true,
      () => false,
    )
    .finally(() => URL.revokeObjectURL(url));
}

/** Whether this browser can decode the file as a picture. */
async function decodes(file: Blob): Promise<boolean> {
  if (typeof createImageBitmap === 'function') {
    try {
      // A tiny bitmap is enough to know the file decodes, and spares a phone the full-size one.
      const bitmap = await createImageBitmap(file, { resizeWidth: 16, resizeQuality: 'low' });
      bitmap.close();
      return true;
    } catch {
      return false;
    }
  }
  if (typeof HTMLImageElement === 'function' && 'decode' in HTMLImageElement.prototype)
    return imgDecodes(file);
  // Nothing here can decode: the server's check is the only one.
  return true;
}

export type ImageCheck = { ok: true; preview: boolean } | { ok: false; reason: string };

/**
 * Whether the file may be sent, and whether it can have a local preview: HEIC, HEIF and AVIF
 * the browser cannot decode go to the server without one.
 */
export async function checkImage(file: File): Promise<ImageCheck> {
  if (tooLarge(file)) return { ok: false, reason: rejectedTooLarge(file.name) };
  if (await decodes(file)) return { ok: true, preview: true };
  if (SERVER_DECIDES.test(file.name) || SERVER_DECIDES_TYPES.test(file.type))
    return { ok: true, preview: false };
  return { ok: false, reason: rejectedNotImage(file.name) };
}
