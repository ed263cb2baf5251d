import { describe, expect, it } from 'vitest';
import { securityPlan, validateBasic, validateProfile, validateSecurity } from './validate.ts';

const basic = {
  firstName: 'Nova',
  lastName: 'Star',
  username: 'nova',
  email: 'nova@orbit.example',
  currentPassword: '',
};
const security = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
  securityQuestion: 'Q?',
  securityAnswer: '',
};

describe('Basic Info rules', () => {
  it('accepts good values', () => expect(validateBasic(basic, 'current', basic.email)).toEqual({}));

  it.each(['ab', 'a'.repeat(21), 'no spaces', 'émile'])(
    'refuses the username %j with the rule',
    (username) =>
      expect(validateBasic({ ...basic, username }, 'idle', basic.email).username).toBe(
        '3–20 chars: letters, numbers, . _ -',
      ),
  );

  it('refuses a username the check found taken', () =>
    expect(validateBasic({ ...basic, username: 'orion' }, 'taken', basic.email).username).toBe(
      'Username not available.',
    ));

  it('lets an unknown availability through to the server', () =>
    expect(validateBasic({ ...basic, username: 'orion' }, 'unknown', basic.email)).toEqual({}));

  it('a new email needs the current password; the stored one with spaces around does not', () => {
    const changed = { ...basic, email: 'vega@orbit.example' };
    expect(validateBasic(changed, 'current', basic.email)).toEqual({
      currentPassword: 'Enter your current password.',
    });
    expect(validateBasic({ ...changed, currentPassword: 'old' }, 'current', basic.email)).toEqual(
      {},
    );
    expect(validateBasic({ ...basic, email: ` ${basic.email} ` }, 'current', basic.email)).toEqual(
      {},
    );
  });

  it.each(['', 'nova', 'nova@', 'nova@orbit', 'no va@orbit.example'])(
    'refuses the email %j',
    (email) =>
      expect(validateBasic({ ...basic, email }, 'current', basic.email).email).toBe(
        'Enter a valid email address.',
      ),
  );
});

/** A Security step with the current password and a new one typed twice. */
const newPassword = (typed: string, confirmation: string) => ({
  ...security,
  currentPassword: 'old',
  newPassword: typed,
  confirmPassword: confirmation,
});

describe('Security rules', () => {
  it('a Save with nothing filled in asks for the password fields', () =>
    expect(validateSecurity(security, 'Q?')).toEqual({
      currentPassword: 'Enter your current password.',
      newPassword: 'Enter a new password.',
    }));

  it('asks for a matching confirmation', () =>
    expect(validateSecurity(newPassword('New-pass1!', 'x'), 'Q?')).toEqual({
      confirmPassword: 'Passwords do not match.',
    }));

  it('does not enforce the strength checklist (the server does)', () =>
    expect(validateSecurity(newPassword('weak', 'weak'), 'Q?')).toEqual({}));

  it('a new question alone needs its answer and the current password, but no new password', () => {
    const values = { ...security, securityQuestion: 'Best planet?' };
    expect(securityPlan(values, 'Q?')).toEqual({ password: false, question: true });
    expect(validateSecurity(values, 'Q?')).toEqual({
      currentPassword: 'Enter your current password.',
      securityAnswer: 'Enter the answer to your new question.',
    });
    const answered = { ...values, securityAnswer: 'Saturn', currentPassword: 'old' };
    expect(securityPlan(answered, 'Q?')).toEqual({ password: false, question: true });
    expect(validateSecurity(answered, 'Q?')).toEqual({});
  });

  it('a new answer to the same question needs the current password', () => {
    const values = { ...security, securityAnswer: 'Vostok' };
    expect(validateSecurity(values, 'Q?')).toEqual({
      currentPassword: 'Enter your current password.',
    });
    expect(validateSecurity({ ...values, currentPassword: 'old' }, 'Q?')).toEqual({});
  });

  it('an answer needs a question', () =>
    expect(
      validateSecurity(
        { ...security, securityQuestion: '', securityAnswer: 'x', currentPassword: 'old' },
        'Q?',
      ),
    ).toEqual({
      securityQuestion: 'Enter a security question for this answer.',
    }));

  it('both parts can be saved together', () =>
    expect(
      securityPlan(
        { ...security, currentPassword: 'a', newPassword: 'N3w$ecret!', securityAnswer: 'b' },
        'Q?',
      ),
    ).toEqual({ password: true, question: true }));
});

describe('Profile rules', () => {
  const profile = { profilePic: null, interests: [], favoriteQuote: '', theme: 'dark' as const };
  it('accepts a picture up to 20 MB and refuses a larger one', () => {
    const ok = new File([new Uint8Array(10)], 'a.png', { type: 'image/png' });
    expect(validateProfile({ ...profile, profilePic: ok })).toEqual({});
    const big = new File([new Uint8Array(20 * 1024 * 1024 + 1)], 'b.png', { type: 'image/png' });
    expect(validateProfile({ ...profile, profilePic: big }).profilePic).toBe(
      'Choose a picture of 20 MB or less.',
    );
  });
  it('refuses a quote over 280 characters', () =>
    expect(validateProfile({ ...profile, favoriteQuote: 'x'.repeat(281) }).favoriteQuote).toMatch(
      /too long/,
    ));
});
