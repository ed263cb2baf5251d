/** The member as the server sends them (docs/decisions.md "One canonical shape"). */
import { z } from './zod.ts';
import { THEMES } from './theme.ts';

/** A member as anyone signed in may see them. */
export const PublicUser = z.object({
  id: z.string(),
  username: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  /** Path under /uploads (or the media store's public address), or '' when the member has none. */
  profileImage: z.string(),
  favoriteQuote: z.string(),
  theme: z.enum(THEMES),
  createdAt: z.string(),
});
export type PublicUser = z.infer<typeof PublicUser>;

/** A member as the server sends them to themselves. */
export const User = z.extend(PublicUser, {
  email: z.string(),
  /** YYYY-MM-DD */
  birthday: z.string(),
  interests: z.array(z.string()),
  /** The code of the member who referred this one, as entered at signup. */
  referral: z.string(),
  /** This member's own code to share. */
  referralCode: z.string(),
  securityQuestion: z.string(),
  /** Moderators see the Reports page (docs/product.md "Safety"). */
  isModerator: z.boolean(),
});
export type User = z.infer<typeof User>;

/** Login and signup: the member and the session token (also set as a cookie). */
export const AuthResponse = z.object({ user: User, token: z.string() });
export type AuthResponse = z.infer<typeof AuthResponse>;

/** `GET /api/auth/me`: null when signed out (docs/decisions.md "Signed-out session check"). */
export const MeResponse = z.object({ user: z.nullable(User) });
export type MeResponse = z.infer<typeof MeResponse>;

export const UserResponse = z.object({ user: User });
export type UserResponse = z.infer<typeof UserResponse>;

export const PublicUserResponse = z.object({ user: PublicUser });
export type PublicUserResponse = z.infer<typeof PublicUserResponse>;
