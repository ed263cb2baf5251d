import { describe, expect, it } from 'vitest';
import {
  EMPTY_SIGNUP,
  isCheckableUsername,
  toggleInterest,
  usernameFeedback,
  validateSignup,
} from './signupForm.ts';

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

describe('the username while typing', () => {
  const rule = '3–20 chars: letters, numbers, . _ -';
  it('shows the rule, not Not available, for a name with a symbol', () =>
    expect(usernameFeedback('ab!', 'unavailable')).toEqual({ rule, availability: 'unknown' }));
  it('shows the rule for a name past 20 characters', () =>
    expect(usernameFeedback('a'.repeat(21), 'unknown')).toEqual({ rule, availability: 'unknown' }));
  it('shows neither for a name still too short to check', () =>
    expect(usernameFeedback('ab', 'unknown')).toEqual({ rule: null, availability: 'unknown' }));
  it('shows the availability of a name that keeps the rule', () => {
    expect(usernameFeedback('nova', 'unavailable')).toEqual({
      rule: null,
      availability: 'unavailable',
    });
    expect(usernameFeedback('nova', 'available')).toEqual({
      rule: null,
      availability: 'available',
    });
  });
  it('asks the server only about names that keep the rule', () => {
    expect(isCheckableUsername('nova')).toBe(true);
    expect(isCheckableUsername(' nova ')).toBe(true);
    for (const name of ['', 'ab', 'ab!', 'nova star', 'a'.repeat(21)])
      expect(isCheckableUsername(name)).toBe(false);
  });
  it('reports the rule on submit and never Not available for a broken name', () =>
    expect(
      validateSignup({ ...filled, username: 'ab!' }, true, 'unavailable', today).username,
    ).toBe(rule));
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
