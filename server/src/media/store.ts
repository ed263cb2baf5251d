import type { Readable } from 'node:stream';

/**
 * Where uploaded pictures live: a folder on this machine, or an S3-compatible bucket that every
 * server node shares. Keys are the names the app makes and nothing else (see MEDIA_KEY).
 */
export interface MediaStore {
  readonly kind: 'disk' | 's3';
  /**
   * Stores an object under its final key; readers never see it half-written. A stream is sent
   * as it is read (a multipart upload on S3), so it never sits whole in memory.
   */
  put(key: string, body: Buffer | Readable, contentType: string): Promise<void>;
  /** The object's headers without its bytes; undefined when there is no such object. */
  stat(key: string): Promise<MediaInfo | undefined>;
  /**
   * The object's bytes as a stream with its headers. With `ifNoneMatch` (an If-None-Match
   * header as the client sent it), an object whose ETag matches answers `not-modified`, no body.
   */
  get(key: string, conditions?: { ifNoneMatch?: string | undefined }): Promise<MediaRead>;
  /** Removes these objects; keys that are not there are no error. */
  remove(keys: readonly string[]): Promise<void>;
  /** Every object whose key starts with `prefix`, fetched a page at a time. */
  list(prefix: string): AsyncIterable<MediaListing>;
  /** Resolves when the store can be written to; otherwise throws an Error saying what is wrong. */
  check(): Promise<void>;
  /** Lets go of connections; the store is not used afterwards. */
  close(): void;
}

export interface MediaInfo {
  size: number;
  /** A quoted entity tag, as it goes into the ETag header. */
  etag: string;
  contentType: string;
  lastModified: Date;
}

export type MediaRead =
  | { status: 'found'; info: MediaInfo; body: Readable }
  | { status: 'not-modified'; etag: string | undefined }
  | { status: 'missing' };

export interface MediaListing {
  key: string;
  size: number;
  lastModified: Date;
}

/** The part of a logger the media code writes to (Fastify's logger fits). */
export interface MediaLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export const GALLERY_PREFIX = 'gallery/';
export const AVATAR_PREFIX = 'avatars/';
/** Everything under these prefixes belongs to a row (an image or a member) or is stray. */
export const MEDIA_PREFIXES = [GALLERY_PREFIX, AVATAR_PREFIX] as const;

/**
 * The only keys the app makes: a gallery picture and its thumbnail, and an avatar, each named by
 * 16 random bytes. Serving and copying accept these alone, so no other file can be reached.
 */
const MEDIA_KEY = /^(?:gallery\/[0-9a-f]{32}(?:-thumb)?|avatars\/[0-9a-f]{32})\.webp$/;

export function isMediaKey(key: string): boolean {
  return MEDIA_KEY.test(key);
}

export const WEBP = 'image/webp';

export function contentTypeOf(key: string): string {
  return key.endsWith('.webp') ? WEBP : 'application/octet-stream';
}

/** Random names never change content, so any cache may keep an object for a year. */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

/** The key of a gallery file from the name a gallery row keeps. */
export const galleryKey = (fileName: string) => `${GALLERY_PREFIX}${fileName}`;

/**
 * Whether an If-None-Match header names this entity tag: `*`, or any tag of the list compared
 * weakly (a `W/` prefix is ignored), as RFC 9110 asks for GET and HEAD.
 */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return ifNoneMatch.split(',').some((tag) => bare(tag) === wanted);
}

/** What `read` answers, or undefined when it fails because the object is not there. */
export async function unlessMissing<T>(
  read: () => Promise<T>,
  missing: (error: unknown) => boolean,
): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (missing(error)) return undefined;
    throw error;
  }
}
