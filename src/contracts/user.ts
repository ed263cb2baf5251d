import type { Theme } from './theme.ts';

/** A member as the server sends them to themselves. */
export interface User {
  _id: string;
  id: string;
  username: string;
  fullName: string;
  firstName: string;
  lastName: string;
  email: string;
  /** YYYY-MM-DD */
  birthday: string;
  /** Path under /uploads, or '' when the member has none. */
  profileImage: string;
  interests: string[];
  /** The code of the member who referred this one, as entered at signup. */
  referral: string;
  /** This member's own code to share. */
  referralCode: string;
  theme: Theme;
  favoriteQuote: string;
  securityQuestion: string;
  createdAt: string;
}

/** A member as anyone signed in may see them. */
export interface PublicUser {
  _id: string;
  id: string;
  username: string;
  fullName: string;
  firstName: string;
  lastName: string;
  profileImage: string;
  favoriteQuote: string;
  theme: Theme;
  createdAt: string;
}

export interface AuthResponse {
  user: User;
  token: string;
}

export interface ErrorBody {
  error: string;
}
