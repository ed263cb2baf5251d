import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http.ts';
import { saveErrorOf } from './saveError.ts';

const http = (status: number, serverMessage: string | null = null) =>
  new HttpError(status, serverMessage ?? `${status}`, serverMessage);

describe('what a failed settings save says (docs/product.md "Errors")', () => {
  it('a 409 about the username is Username already taken., under the field and in a toast', () =>
    expect(saveErrorOf(http(409, 'Username already taken'))).toEqual({
      message: 'Username already taken.',
      field: 'username',
      toast: true,
    }));

  it('a 409 about the email is Email already in use., under the email field only', () =>
    expect(saveErrorOf(http(409, 'Email already in use'))).toEqual({
      message: 'Email already in use.',
      field: 'email',
    }));

  it('reads the conflict’s text case-insensitively', () =>
    expect(saveErrorOf(http(409, 'USERNAME exists')).message).toBe('Username already taken.'));

  it('a 401 says the member is signed out', () =>
    expect(saveErrorOf(http(401, 'Sign in first')).message).toBe(
      'You are signed out. Please log in again.',
    ));

  it('a wrong current password goes under that field only, never also in a toast', () =>
    expect(saveErrorOf(http(400, 'Your current password is not correct.'))).toEqual({
      message: 'Your current password is not correct.',
      field: 'currentPassword',
    }));

  it('the server’s password policy goes under the new password', () =>
    expect(saveErrorOf(http(400, 'Password requirements not met'))).toEqual({
      message: 'Password requirements not met',
      field: 'newPassword',
    }));

  it('a 429 says in the section how long to wait, in the server’s words', () =>
    expect(saveErrorOf(http(429, 'Too many attempts. Try again in 840 seconds.'))).toEqual({
      message: 'Too many attempts. Try again in 840 seconds.',
    }));

  it('any other 400 shows the server’s rule in its words, in the section', () =>
    expect(saveErrorOf(http(400, 'Security answer is too long (max 200 characters).'))).toEqual({
      message: 'Security answer is too long (max 200 characters).',
    }));

  it.each([
    ['a 409 about something else', http(409, 'Conflict')],
    ['a 400 without a message', http(400)],
    ['a 500', http(500, 'boom')],
    ['a 403', http(403, 'Forbidden origin')],
    ['an unreachable server', http(0)],
    ['anything that is not an HTTP error', new TypeError('x')],
  ])('%s is Could not save. Please try again.', (_what, error) =>
    expect(saveErrorOf(error)).toEqual({ message: 'Could not save. Please try again.' }),
  );
});
