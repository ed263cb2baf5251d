import type { Media } from './index.ts';
import { SWEEP_GRACE_MS } from './sweep.ts';

/** A processed picture ready to store. */
export interface MediaFile {
  key: string;
  body: Buffer;
  contentType: string;
}

/**
 * Stores every file or none: when one write fails, the others are removed again. Answers when
 * the writing began, for keepFiles.
 */
export async function putFiles(media: Media, files: readonly MediaFile[]): Promise<number> {
  const began = Date.now();
  const results = await Promise.allSettled(
    files.map((file) => media.store.put(file.key, file.body, file.contentType)),
  );
  const failure = results.find((result) => result.status === 'rejected');
  if (failure) {
    await media.discard(files.map((file) => file.key));
    throw failure.reason;
  }
  return began;
}

/**
 * Call once the row naming the files is in. Objects no row names are swept after
 * SWEEP_GRACE_MS; an insert that waited more than half of that (a locked table, a slow
 * database) may have lost its objects to a sweep, so they are written again under the same keys.
 */
export async function keepFiles(
  media: Media,
  files: readonly MediaFile[],
  began: number,
  now = Date.now(),
): Promise<void> {
  if (now - began <= SWEEP_GRACE_MS / 2) return;
  await Promise.all(files.map((file) => media.store.put(file.key, file.body, file.contentType)));
}
