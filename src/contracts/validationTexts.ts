/**
 * The words of the validation rules (docs/product.md "Validation rules") and the free-text limits,
 * apart from the rules themselves (validation.ts): the landing page's login form shows these
 * without loading the signup and settings rules.
 */
import { INTERESTS_MAX, PASSWORD_MAX } from './constants.ts';

export const MESSAGES = {
  loginRequired: 'Username/email and password are required.',
  usernameRequired: 'Username required',
  usernameShort: 'Min 3 chars',
  usernameRule: '3–20 chars: letters, numbers, . _ -',
  usernameNotAvailable: 'Not available',
  emailRequired: 'Email required',
  emailInvalid: 'Enter a valid email address.',
  birthdayRequired: 'Birthday required',
  birthdayInvalid: 'Enter a real date as YYYY-MM-DD.',
  underAge: '18+ only',
  passwordRequired: 'Required',
  passwordPolicy: 'Password requirements not met',
  passwordTooLong: `Password is too long (max ${PASSWORD_MAX} characters).`,
  confirmRequired: 'Required',
  confirmMismatch: 'Does not match',
  profileImageRequired: 'Profile image required',
  tooManyInterests: `Choose at most ${INTERESTS_MAX} interests.`,
  currentPasswordRequired: 'Enter your current password.',
  wrongCurrentPassword: 'Your current password is not correct.',
  newPasswordRequired: 'Enter a new password.',
  newPasswordMismatch: 'Passwords do not match.',
} as const;

/** Optional free-text fields and their upper bounds. */
export const TEXT_LIMITS = {
  firstName: { max: 50, label: 'First name' },
  lastName: { max: 50, label: 'Last name' },
  securityQuestion: { max: 200, label: 'Security question' },
  securityAnswer: { max: 200, label: 'Security answer' },
  favoriteQuote: { max: 280, label: 'Favorite quote' },
  referral: { max: 40, label: 'Referral' },
} as const;
