import { describe, expect, it } from 'vitest';
import { EMPTY_SIGNUP, toggleInterest, validateSignup } from './signupForm.ts';

const today = new Date(2026, 10, 23);
const filled = {
  ...EMPTY_SIGNUP,
  username: 'nova',
  email: 'nova@orbit.example',
  birthday: '1990-01-01',
  password: 'Sup3r$ecret',
  confirmPassword: 'Sup3r$ecret',
};

describe('the signup form', () => {
  it('shows every required message on an empty form', () =>
    expect(validateSignup(EMPTY_SIGNUP, false, 'unknown', today)).toEqual({
      username: 'Username required',
      email: 'Email required',
      birthday: 'Birthday required',
      password: 'Required',
      confirmPassword: 'Required',
      profilePic: 'Profile image required',
    }));
  it('says Does not match for a different confirmation', () =>
    expect(
      validateSignup({ ...filled, confirmPassword: 'other' }, true, 'available', today)
        .confirmPassword,
    ).toBe('Does not match'));
  it('says Not available when the check said so', () =>
    expect(validateSignup(filled, true, 'unavailable', today).username).toBe('Not available'));
  it('passes a complete form', () =>
    expect(validateSignup(filled, true, 'available', today)).toEqual({}));
});

describe('choosing interests', () => {
  it('adds and removes', () => {
    expect(toggleInterest([], 'Tech')).toEqual(['Tech']);
    expect(toggleInterest(['Tech'], 'Tech')).toEqual([]);
  });
  it('blocks a 26th', () => {
    const full = Array.from({ length: 25 }, (_, i) => `i${i}`);
    expect(toggleInterest(full, 'One more')).toEqual(full);
  });
});
