/**
 * The member as the client reads them (docs/product.md "Session and API calls"): tolerant of wrapped responses and of the field
 * names other servers use, so every screen works from one shape.
 */
import { DEFAULT_THEME, isTheme } from '../../contracts/theme.ts';
import type { User } from '../../contracts/user.ts';

/**
 * The member as the app holds them: the contract's user (src/contracts/user.ts) without its
 * creation time, filled from whatever fields a server sent. `profileImage` is as the server sent
 * it; resolve it with `avatarUrl` before showing it.
 */
export type CurrentUser = Omit<User, 'createdAt'>;

type Loose = Record<string, unknown>;

const isObject = (value: unknown): value is Loose => typeof value === 'object' && value !== null;

function firstString(source: Loose, keys: readonly string[]): string {
  for (const key of keys) {
    const value = source[key];
    if (typeof value === 'string' && value) return value;
    if (typeof value === 'number') return String(value);
  }
  return '';
}

/** A login, signup or profile response may wrap the user under user, profile, data.user or data.profile. */
export function unwrapUser(body: unknown): Loose | null {
  if (!isObject(body)) return null;
  const data = isObject(body.data) ? body.data : undefined;
  for (const candidate of [body.user, body.profile, data?.user, data?.profile, data, body]) {
    if (isObject(candidate) && (candidate._id !== undefined || candidate.id !== undefined))
      return candidate;
  }
  return null;
}

const IMAGE_KEYS = [
  'profileImageUrl',
  'profilePic',
  'profileImage',
  'profileImg',
  'avatarUrl',
  'avatar',
  'photoUrl',
  'picture',
] as const;

function imageOf(source: Loose): string {
  return firstString(source, IMAGE_KEYS);
}

/** Any date-like value as YYYY-MM-DD; '' when it cannot be read. */
export function normaliseBirthday(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const text = String(value).trim();
  const direct = /^(\d{4}-\d{2}-\d{2})/.exec(text);
  if (direct?.[1]) return direct[1];
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

export function normaliseUser(body: unknown): CurrentUser | null {
  const raw = unwrapUser(body);
  if (!raw) return null;
  const id = firstString(raw, ['_id', 'id']);
  if (!id) return null;
  const firstName = firstString(raw, ['firstName']);
  const lastName = firstString(raw, ['lastName']);
  const interests = Array.isArray(raw.interests)
    ? raw.interests.filter((item): item is string => typeof item === 'string')
    : typeof raw.interests === 'string'
      ? raw.interests
          .split(',')
          .map((item) => item.trim())
          .filter(Boolean)
      : [];
  return {
    id,
    username: firstString(raw, ['username', 'userName', 'name', 'handle']),
    fullName:
      firstString(raw, ['fullName', 'displayName']) ||
      [firstName, lastName].filter(Boolean).join(' '),
    firstName,
    lastName,
    email: firstString(raw, ['email']),
    birthday: normaliseBirthday(raw.birthday),
    profileImage: imageOf(raw),
    interests,
    referral: firstString(raw, ['referral']),
    referralCode: firstString(raw, ['referralCode']),
    theme: isTheme(raw.theme) ? raw.theme : DEFAULT_THEME,
    favoriteQuote: firstString(raw, ['favoriteQuote']),
    securityQuestion: firstString(raw, ['securityQuestion']),
    isModerator: raw.isModerator === true,
  };
}
