import { describe, expect, it } from 'vitest';
import { DEFAULT_AVATAR } from '../contracts/constants.ts';
import { apiUrl } from '../lib/apiHost.ts';
import { avatarUrl } from './avatarUrl.ts';

describe('avatar addresses', () => {
  it('loads a path under /uploads from the API host', () =>
    expect(avatarUrl('/uploads/avatars/a.webp')).toBe(apiUrl('/uploads/avatars/a.webp')));

  it('uses an absolute address (a MEDIA_PUBLIC_URL) as it is', () =>
    expect(avatarUrl('https://media.orbit.test/pictures/avatars/a.webp')).toBe(
      'https://media.orbit.test/pictures/avatars/a.webp',
    ));

  it('falls back to the default avatar when there is none', () =>
    expect(avatarUrl('')).toBe(DEFAULT_AVATAR));
});
