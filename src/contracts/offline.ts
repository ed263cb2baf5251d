/**
 * What the page and the service worker keep for offline use. The IndexedDB records are checked
 * when read (src/lib/idb.ts): one that does not fit (an older version's, a damaged one) counts as
 * missing. They are the app's own records, declared with the checks of records.ts.
 */
import {
  type Checked,
  finite,
  integerIn,
  nonEmptyText,
  nonNegative,
  readWith,
  record,
  text,
} from './records.ts';

/** The member whose copies are kept and served: the `currentMember` entry of `meta`. */
export const readCurrentMember = readWith(nonEmptyText);

const savedResponse = record({
  userId: text,
  url: text,
  status: integerIn(200, 599),
  contentType: text,
  body: text,
  savedAt: finite,
});
/** An API answer (JSON text) as the member last saw it. */
export type SavedResponse = Checked<typeof savedResponse>;
export const readSavedResponse = readWith(savedResponse);

const savedMedia = record({
  userId: text,
  url: text,
  blob: (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob,
  bytes: nonNegative,
  lastUsed: finite,
});
/** A thumbnail or avatar as the member last saw it. */
export type SavedMedia = Checked<typeof savedMedia>;
export const readSavedMedia = readWith(savedMedia);

const mediaUsage = record({ userId: text, files: finite, bytes: finite });
/** What a member's saved media add up to, kept in step with their media in the same transactions. */
export type MediaUsage = Checked<typeof mediaUsage>;
export const readMediaUsageRecord = readWith(mediaUsage);

const sharedFile = record({
  owner: text,
  file: (value: unknown): value is Blob => typeof Blob !== 'undefined' && value instanceof Blob,
  name: text,
  type: text,
  sharedAt: finite,
});
/**
 * A photo shared into Orbit from another app, kept for the member signed in when it came
 * (`owner`), or for whoever logs in next (`owner` is '').
 */
export type SharedFile = Checked<typeof sharedFile>;
export const readSharedFile = readWith(sharedFile);
