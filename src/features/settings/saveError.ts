/** What a failed settings call tells the member (docs/product.md "Errors", settings rows). */
import { MESSAGES } from '../../contracts/validation.ts';
import { HttpError } from '../../lib/http.ts';

export const SAVE_MESSAGES = {
  usernameTaken: 'Username already taken.',
  emailTaken: 'Email already in use.',
  signedOut: 'You are signed out. Please log in again.',
  failed: 'Could not save. Please try again.',
  loadFailed: 'You may be signed out. Please log in again.',
} as const;

type SaveErrorField = 'username' | 'email' | 'currentPassword' | 'newPassword';

export interface SaveError {
  message: string;
  /** The field the message belongs under; without one it stands at the foot of the section. */
  field?: SaveErrorField;
  /** Also said in a toast: only where docs/product.md "Errors" asks for both (a taken username: "field and toast"). */
  toast?: true;
}

/** The server's rule texts that are about one field of the Security section. */
const FIELD_OF_RULE: Readonly<Record<string, SaveErrorField>> = {
  [MESSAGES.wrongCurrentPassword]: 'currentPassword',
  [MESSAGES.currentPasswordRequired]: 'currentPassword',
  [MESSAGES.newPasswordRequired]: 'newPassword',
  [MESSAGES.passwordPolicy]: 'newPassword',
  [MESSAGES.passwordTooLong]: 'newPassword',
};

/**
 * Every failure is reported once, where the member fixes it: under its field, or in the section.
 * A toast would only repeat it and then vanish.
 */
export function saveErrorOf(error: unknown): SaveError {
  if (!(error instanceof HttpError)) return { message: SAVE_MESSAGES.failed };
  const text = error.serverMessage ?? '';
  if (error.status === 409 && /username/i.test(text))
    return { message: SAVE_MESSAGES.usernameTaken, field: 'username', toast: true };
  if (error.status === 409 && /email/i.test(text))
    return { message: SAVE_MESSAGES.emailTaken, field: 'email' };
  if (error.status === 401) return { message: SAVE_MESSAGES.signedOut };
  // Too many wrong current passwords: the server's text says how long to wait.
  if (error.status === 429 && text) return { message: text };
  // The server repeats every rule of docs/product.md "Validation rules" and answers 400 in the same words
  // (docs/decisions.md "Server repeats every rule"), e.g. the password policy or a wrong current password: that text is the clear one.
  if (error.status === 400 && text) {
    const field = FIELD_OF_RULE[text];
    return field ? { message: text, field } : { message: text };
  }
  return { message: SAVE_MESSAGES.failed };
}
