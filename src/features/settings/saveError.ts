/** What a failed settings call tells the member (SPEC §8, settings rows). */
import { HttpError } from '../../lib/http.ts';

export const SAVE_MESSAGES = {
  usernameTaken: 'Username already taken.',
  emailTaken: 'Email already in use.',
  signedOut: 'You are signed out. Please log in again.',
  failed: 'Could not save. Please try again.',
  loadFailed: 'You may be signed out. Please log in again.',
} as const;

export interface SaveError {
  message: string;
  /** The field the message also belongs under, when there is one. */
  field?: 'username' | 'email';
}

export function saveErrorOf(error: unknown): SaveError {
  if (!(error instanceof HttpError)) return { message: SAVE_MESSAGES.failed };
  const text = error.serverMessage ?? '';
  if (error.status === 409 && /username/i.test(text))
    return { message: SAVE_MESSAGES.usernameTaken, field: 'username' };
  if (error.status === 409 && /email/i.test(text))
    return { message: SAVE_MESSAGES.emailTaken, field: 'email' };
  if (error.status === 401) return { message: SAVE_MESSAGES.signedOut };
  // The server repeats every rule of SPEC §5 and answers 400 in the spec's words (DECISIONS.md
  // "Accounts"), e.g. the password policy or a wrong current password: that text is the clear one.
  if (error.status === 400 && text) return { message: text };
  return { message: SAVE_MESSAGES.failed };
}
