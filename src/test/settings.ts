import type { CurrentUser } from '../contracts/readers/user.ts';

/** A member as the settings tests start from; each test overrides what it is about. */
export function testMember(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    id: 'u1',
    username: 'nova',
    fullName: 'Nova Star',
    firstName: 'Nova',
    lastName: 'Star',
    email: 'nova@orbit.example',
    birthday: '1990-01-02',
    profileImage: '',
    interests: ['Tech'],
    referral: '',
    referralCode: 'NOVA42',
    theme: 'normal1',
    favoriteQuote: '',
    securityQuestion: '',
    isModerator: false,
    ...overrides,
  };
}
