/** Request bodies of the account calls (docs/product.md "Session and API calls", "Theme"), parsed by the server and typed for the client. */
import { z } from 'zod';
import { THEMES } from './theme.ts';

const text = z.string().max(10_000).default('');

export const LoginBody = z.object({
  identifier: text,
  password: text,
  remember: z.boolean().default(false),
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

const optionalText = z.string().max(10_000).optional();

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
  interests: z.union([z.array(z.string().max(100)).max(1000), z.string().max(10_000)]).optional(),
  theme: z.enum(THEMES, { error: `Theme must be one of: ${THEMES.join(', ')}.` }).optional(),
});
export type ProfilePatchBody = z.input<typeof ProfilePatchBody>;

export const ForgotQuestionBody = z.object({ identifier: text });
export const ForgotResetBody = z.object({ identifier: text, answer: text, newPassword: text });
export type ForgotResetBody = z.input<typeof ForgotResetBody>;

export const UsernameQuery = z.object({ username: z.string().max(200).default('') });

export interface CheckUsernameResponse {
  available: boolean;
  reason?: 'invalid' | 'taken' | 'current' | null;
}
