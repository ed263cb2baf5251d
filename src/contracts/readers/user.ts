/** The member as the app reads them: wrapped or not, under any of the names other servers use. */
import { DEFAULT_THEME, isTheme } from '../theme.ts';
import type { User } from '../user.ts';
import { type Loose, idOf, imageOf, isObject, text } from './common.ts';

/**
 * The member as the app holds them: the contract's user (src/contracts/user.ts) without its
 * creation time, filled from whatever fields a server sent. `profileImage` is as the server sent
 * it; resolve it with `avatarUrl` before showing it.
 */
export type CurrentUser = Omit<User, 'createdAt'>;

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

/** Any date-like value as YYYY-MM-DD; '' when it cannot be read. */
export function normaliseBirthday(value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') return '';
  const raw = String(value).trim();
  const direct = /^(\d{4}-\d{2}-\d{2})/.exec(raw);
  if (direct?.[1]) return direct[1];
  const date = new Date(raw);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

/** The member of an answer, wrapped or not, under any of the names other servers use; null when none. */
export function normaliseUser(body: unknown): CurrentUser | null {
  const raw = unwrapUser(body);
  if (!raw) return null;
  const id = idOf(raw);
  if (!id) return null;
  const firstName = text(raw, 'firstName');
  const lastName = text(raw, 'lastName');
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
    username: text(raw, 'username', 'userName', 'name', 'handle'),
    fullName:
      text(raw, 'fullName', 'displayName') || [firstName, lastName].filter(Boolean).join(' '),
    firstName,
    lastName,
    email: text(raw, 'email'),
    birthday: normaliseBirthday(raw.birthday),
    profileImage: imageOf(raw),
    interests,
    referral: text(raw, 'referral'),
    referralCode: text(raw, 'referralCode'),
    theme: isTheme(raw.theme) ? raw.theme : DEFAULT_THEME,
    favoriteQuote: text(raw, 'favoriteQuote'),
    securityQuestion: text(raw, 'securityQuestion'),
    isModerator: raw.isModerator === true,
  };
}

/** A login's or signup's answer: the member, wrapped or not, and the session token when one came. */
export function readAuth(body: unknown): { user: CurrentUser | null; token: string | null } {
  const token = isObject(body) && typeof body.token === 'string' && body.token ? body.token : null;
  return { user: normaliseUser(body), token };
}

/**
 * A member's profile: the member, and the theme word as sent, before it is normalised away (the
 * profile page shows other words too, docs/product.md "Theme").
 */
export function readProfile(body: unknown): { user: CurrentUser | null; themeWord: unknown } {
  return { user: normaliseUser(body), themeWord: themeWordOf(body) };
}

/** The raw theme word of a profile response ({user: {theme}} or the user itself). */
export function themeWordOf(body: unknown): unknown {
  if (!isObject(body)) return undefined;
  return (isObject(body.user) ? body.user : body).theme;
}
