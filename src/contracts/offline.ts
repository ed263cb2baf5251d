/**
 * What the page and the service worker keep for offline use. The IndexedDB records are parsed
 * when read (src/lib/idb.ts): one that does not fit (an older version's, a damaged one) counts as
 * missing.
 */
import { fieldsOf, z } from './zod.ts';
import { Notification } from './notifications.ts';

/**
 * Set by the service worker on an API answer it served from the member's saved copy because the
 * network failed or was too slow; the page shows its offline banner for such answers.
 */
export const OFFLINE_HEADER = 'x-orbit-offline';

/** The member whose copies are kept and served: the `currentMember` entry of `meta`. */
export const CurrentMember = z.string().check(z.minLength(1));

/** One member's synthesised friend-request notifications, and the requests they dismissed. */
export const FriendRequestCache = z.object({
  userId: z.string(),
  items: z.array(Notification),
  dismissed: z.array(z.string()),
  savedAt: z.number(),
});
export type FriendRequestCache = z.infer<typeof FriendRequestCache>;

/** An API answer (JSON text) as the member last saw it. */
export const SavedResponse = z.object({
  userId: z.string(),
  url: z.string(),
  status: z.number().check(z.int(), z.gte(200), z.lte(599)),
  contentType: z.string(),
  body: z.string(),
  savedAt: z.number(),
});
export type SavedResponse = z.infer<typeof SavedResponse>;

/** A thumbnail or avatar as the member last saw it. */
export const SavedMedia = z.object({
  userId: z.string(),
  url: z.string(),
  blob: z.custom<Blob>((value) => typeof Blob !== 'undefined' && value instanceof Blob),
  bytes: z.number().check(z.gte(0)),
  lastUsed: z.number(),
});
export type SavedMedia = z.infer<typeof SavedMedia>;

/** What a member's saved media add up to, kept in step with their media in the same transactions. */
export const MediaUsage = z.object({
  userId: z.string(),
  ...fieldsOf(['files', 'bytes'], z.number()),
});
export type MediaUsage = z.infer<typeof MediaUsage>;
