/**
 * What the app reads from any server, once per entity (docs/architecture.md "Reading what comes
 * in"; docs/decisions.md "One canonical shape"): the helpers every entity's reader shares. The
 * endpoint table (src/contracts/endpoints.ts) names the reader of each answer, and the app's one
 * call function applies it, so no feature reads a raw answer. Lists and counts are read in
 * lists.ts, so the session's reader, which the first page loads, does not bring them.
 */
export type Loose = Record<string, unknown>;

export const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null;

/** The first of `keys` that holds a non-empty string or a number, as a string; '' when none does. */
export function text(source: Loose | undefined, ...keys: string[]): string {
  if (!source) return '';
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return '';
}

/** An id as any server names it. */
export const idOf = (source: Loose | undefined): string => text(source, 'id', '_id');

/** The keys a profile picture may come under (docs/product.md "Session and API calls"). */
export const IMAGE_KEYS = [
  'profileImageUrl',
  'profilePic',
  'profileImage',
  'profileImg',
  'avatarUrl',
  'avatar',
  'photoUrl',
  'picture',
] as const;

export function imageOf(source: Loose): string {
  return text(source, ...IMAGE_KEYS);
}
