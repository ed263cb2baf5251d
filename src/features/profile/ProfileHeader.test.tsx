import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { ProfileHeader } from './ProfileHeader.tsx';

afterEach(cleanup);

const member: CurrentUser = {
  id: 'u-ada',
  username: 'ada',
  fullName: 'Ada\u202egpj.exe Lovelace',
  firstName: 'Ada\u202egpj.exe',
  lastName: 'Lovelace',
  profileImage: '',
  favoriteQuote: '\u2067Ad astra\u2069.\u200f',
  theme: 'light',
  email: 'ada@orbit.example',
  birthday: '1990-05-17',
  interests: [],
  referral: '',
  referralCode: 'ABC123',
  securityQuestion: '',
  isModerator: false,
};

describe('the profile header', () => {
  it('shows a name and a quote without the bidi controls they were saved with', () => {
    render(
      <MemoryRouter>
        <ProfileHeader user={member} isOwner counts={{ friends: 0, posts: 0, likes: 0 }} />
      </MemoryRouter>,
    );

    expect(screen.getByText('Adagpj.exe Lovelace')).toBeTruthy();
    expect(screen.getByText('Ad astra.')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u200e\u200f]/);
  });
});
