import { describe, expect, it } from 'vitest';
import { IMAGE_KEYS } from './common.ts';
import { normaliseBirthday, normaliseUser, unwrapUser } from './user.ts';

describe('reading a user from any response shape', () => {
  const plain = { _id: 'u1', username: 'nova' };
  it.each([
    ['user', { user: plain }],
    ['profile', { profile: plain }],
    ['data.user', { data: { user: plain } }],
    ['data.profile', { data: { profile: plain } }],
    ['the body itself', plain],
  ])('finds the user under %s', (_where, body) => expect(unwrapUser(body)?._id).toBe('u1'));

  it('answers null when there is no user', () =>
    expect(normaliseUser({ error: 'nope' })).toBeNull());

  it('takes id when _id is missing', () =>
    expect(normaliseUser({ id: 7, username: 'x' })?.id).toBe('7'));

  it.each(['userName', 'name', 'handle'])('falls back to %s for the username', (key) =>
    expect(normaliseUser({ id: '1', [key]: 'astro' })?.username).toBe('astro'),
  );

  it.each(IMAGE_KEYS)('reads the profile image from %s', (key) =>
    expect(normaliseUser({ id: '1', [key]: '/uploads/a.webp' })?.profileImage).toBe(
      '/uploads/a.webp',
    ),
  );

  it('builds the full name from first and last when none is given', () =>
    expect(normaliseUser({ id: '1', firstName: 'Ada', lastName: 'Lovelace' })?.fullName).toBe(
      'Ada Lovelace',
    ));

  it('prefers displayName when fullName is missing', () =>
    expect(normaliseUser({ id: '1', displayName: 'Star Child' })?.fullName).toBe('Star Child'));

  it('reads comma-joined interests', () =>
    expect(normaliseUser({ id: '1', interests: 'Tech, Art' })?.interests).toEqual(['Tech', 'Art']));

  it('falls back to normal1 for an unknown theme', () =>
    expect(normaliseUser({ id: '1', theme: 'sparkly' })?.theme).toBe('normal1'));
});

describe('birthday normalisation', () => {
  it('keeps YYYY-MM-DD', () => expect(normaliseBirthday('1990-04-05')).toBe('1990-04-05'));
  it('cuts an ISO date-time to its date', () =>
    expect(normaliseBirthday('1990-04-05T00:00:00.000Z')).toBe('1990-04-05'));
  it('answers empty for rubbish', () => expect(normaliseBirthday('not a date')).toBe(''));
});
