import type { Config } from '../config.ts';
import { DiskStore } from './disk.ts';
import type { MediaLog, MediaStore } from './store.ts';

export * from './store.ts';

/** The URL a picture is handed out under, from its key; '' stays '' (a member without avatar). */
export type MediaUrl = (key: string) => string;

/** `${publicUrl}/<key>` when pictures are served from elsewhere, else `/uploads/<key>` here. */
export function mediaUrlFor(publicUrl: string | undefined): MediaUrl {
  const base = publicUrl ?? '/uploads';
  return (key) => (key ? `${base}/${key}` : '');
}

/**
 * The store the configuration asks for. The AWS SDK is loaded only when a bucket is set: it is
 * large, and a node on disk should not pay for it at start.
 */
export async function createMediaStore(config: Pick<Config, 'media' | 'uploadsDir'>) {
  if (!config.media.s3) return new DiskStore(config.uploadsDir);
  const { S3Store } = await import('./s3.ts');
  return new S3Store(config.media.s3);
}

/** What services need of the pictures: the store, their URLs and a safe way to drop them. */
export interface Media {
  store: MediaStore;
  url: MediaUrl;
  /**
   * Removes objects no row refers to any more, trying DISCARD_TRIES times. A failure is logged
   * with the keys, never thrown: the member's action already succeeded (or failed for its own
   * reason), and the sweep removes them later.
   */
  discard(keys: readonly string[]): Promise<void>;
}

/** Tries of a removal, and the waits between them: a passing hiccup of the disk or bucket. */
export const DISCARD_TRIES = 3;
const DISCARD_BACKOFF_MS = [100, 400] as const;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function createMedia(
  store: MediaStore,
  publicUrl: string | undefined,
  log: Pick<MediaLog, 'warn'>,
): Media {
  return {
    store,
    url: mediaUrlFor(publicUrl),
    async discard(keys) {
      const present = keys.filter(Boolean);
      if (present.length === 0) return;
      for (let attempt = 1; ; attempt += 1) {
        try {
          await store.remove(present);
          return;
        } catch (error) {
          if (attempt >= DISCARD_TRIES) {
            log.warn(
              { err: error, keys: present, tries: attempt },
              'could not remove pictures; the sweep will',
            );
            return;
          }
          await pause(DISCARD_BACKOFF_MS[attempt - 1] ?? 400);
        }
      }
    },
  };
}
