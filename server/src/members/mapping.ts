import type { PublicUser, User } from '../../../src/contracts/user.ts';
import { DEFAULT_THEME, isTheme } from '../../../src/contracts/theme.ts';
import { displayText } from '../../../src/contracts/validation.ts';
import type { UserRow } from '../db/schema.ts';
import type { MediaUrl } from '../media/index.ts';

export function profileImageUrl(row: Pick<UserRow, 'profile_image'>, mediaUrl: MediaUrl): string {
  return mediaUrl(row.profile_image);
}

function parseList(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : [];
  } catch {
    return [];
  }
}

/**
 * A member's name as others see it. Names and texts stored before hidden characters were removed
 * leave without them too (docs/decisions.md "Display text without hidden characters").
 */
export function fullNameOf(row: Pick<UserRow, 'first_name' | 'last_name'>): string {
  return displayText([row.first_name, row.last_name].filter(Boolean).join(' '));
}

export function userRowToPublicUser(row: UserRow, mediaUrl: MediaUrl): PublicUser {
  return {
    id: row.id,
    username: row.username,
    fullName: fullNameOf(row),
    firstName: displayText(row.first_name),
    lastName: displayText(row.last_name),
    profileImage: profileImageUrl(row, mediaUrl),
    favoriteQuote: displayText(row.favorite_quote),
    theme: isTheme(row.theme) ? row.theme : DEFAULT_THEME,
    createdAt: row.created_at,
  };
}

export function userRowToUser(row: UserRow, mediaUrl: MediaUrl): User {
  return {
    ...userRowToPublicUser(row, mediaUrl),
    email: row.email,
    birthday: row.birthday,
    interests: parseList(row.interests),
    referral: displayText(row.referral),
    referralCode: row.referral_code,
    securityQuestion: displayText(row.security_question),
    isModerator: row.is_moderator === 1,
  };
}
