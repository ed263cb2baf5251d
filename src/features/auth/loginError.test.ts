import { describe, expect, it } from 'vitest';
import { SUSPENDED_LOGIN } from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { loginErrorText } from './loginError.ts';

describe('loginErrorText', () => {
  it("tells a suspended member the moderator's reason, as the server words it", () =>
    expect(
      loginErrorText(new HttpError(403, '403 Forbidden', SUSPENDED_LOGIN('Spam, again.'))),
    ).toBe('This account is suspended: Spam, again.'));
  it('names the status when the server gave no text', () =>
    expect(loginErrorText(new HttpError(502, '502 Bad Gateway'))).toBe('Login failed (502)'));
  it('says the login failed when the server was not reached', () =>
    expect(loginErrorText(new HttpError(0, 'Network error'))).toBe('Login failed.'));
});
