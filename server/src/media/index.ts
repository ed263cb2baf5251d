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
   * Removes objects no row refers to any more. A failure is logged, never thrown: the member's
   * action already succeeded (or failed for its own reason), and the sweep removes them later.
   */
  discard(keys: readonly string[]): Promise<void>;
}

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
      try {
        await store.remove(present);
      } catch (error) {
        log.warn({ err: error, keys: present }, 'could not remove pictures; the sweep will');
      }
    },
  };
}
