/** Requests and answers of the account calls (docs/product.md "Session and API calls", "Theme"): the server validates with them, the client sends and reads them. */
import { z } from './zod.ts';
import { THEMES } from './theme.ts';

const text = z._default(z.string().check(z.maxLength(10_000)), '');

export const LoginBody = z.object({
  identifier: text,
  password: text,
  remember: z._default(z.boolean(), false),
});
export type LoginBody = z.input<typeof LoginBody>;

export const PasswordChangeBody = z.object({
  currentPassword: text,
  newPassword: text,
});
export type PasswordChangeBody = z.input<typeof PasswordChangeBody>;

export const ThemeBody = z.object({
  theme: z.enum(THEMES, { error: `Theme must be one of: ${THEMES.join(', ')}.` }),
});
export type ThemeBody = z.input<typeof ThemeBody>;

const optionalText = z.optional(z.string().check(z.maxLength(10_000)));

export const ProfilePatchBody = z.object({
  firstName: optionalText,
  lastName: optionalText,
  username: optionalText,
  email: optionalText,
  referral: optionalText,
  favoriteQuote: optionalText,
  securityQuestion: optionalText,
  securityAnswer: optionalText,
  /** An array in JSON, a comma-joined string in multipart. */
  interests: z.optional(
    z.union([
      z.array(z.string().check(z.maxLength(100))).check(z.maxLength(1000)),
      z.string().check(z.maxLength(10_000)),
    ]),
  ),
  theme: z.optional(z.enum(THEMES, { error: `Theme must be one of: ${THEMES.join(', ')}.` })),
  /** Needed to change the email or the security question or answer (docs/decisions.md "Re-authentication"). */
  currentPassword: optionalText,
});
export type ProfilePatchBody = z.input<typeof ProfilePatchBody>;

export const ForgotQuestionBody = z.object({ identifier: text });
export type ForgotQuestionBody = z.input<typeof ForgotQuestionBody>;
export const ForgotResetBody = z.object({ identifier: text, answer: text, newPassword: text });
export type ForgotResetBody = z.input<typeof ForgotResetBody>;

export const UsernameQuery = z.object({
  username: z._default(z.string().check(z.maxLength(200)), ''),
});
export type UsernameQuery = z.input<typeof UsernameQuery>;

/** `GET /api/users/profile/{username}` */
export const UsernameParams = z.object({
  username: z.string().check(z.minLength(1), z.maxLength(200)),
});
export type UsernameParams = z.infer<typeof UsernameParams>;

/** Signup's check (docs/decisions.md "Two username checks"). */
export const UsernameAvailableResponse = z.object({ available: z.boolean() });
export type UsernameAvailableResponse = z.infer<typeof UsernameAvailableResponse>;

/** The settings check: the member's own name counts as available, with the reason. */
export const CheckUsernameResponse = z.object({
  available: z.boolean(),
  reason: z.optional(z.nullable(z.enum(['invalid', 'taken', 'current']))),
});
export type CheckUsernameResponse = z.infer<typeof CheckUsernameResponse>;

export const SecurityQuestionResponse = z.object({ question: z.string() });
export type SecurityQuestionResponse = z.infer<typeof SecurityQuestionResponse>;

/** The cookie session's token, handed to the page to send as a bearer. */
export const TokenResponse = z.object({ token: z.string() });
export type TokenResponse = z.infer<typeof TokenResponse>;

export const ThemeResponse = z.object({ theme: z.enum(THEMES) });
export type ThemeResponse = z.infer<typeof ThemeResponse>;
