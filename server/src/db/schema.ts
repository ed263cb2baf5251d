import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are ISO-8601 UTC strings and flags are 0/1 integers, alike on SQLite and PostgreSQL. */
export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased username: unique, and the key every lookup uses. */
  username_key: string;
  email: string;
  email_key: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  birthday: string;
  profile_image: string;
  avatar_version: Generated<number>;
  /** JSON array of strings. */
  interests: string;
  referral: string;
  referral_code: string;
  theme: string;
  favorite_quote: string;
  security_question: string;
  security_answer_hash: string;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the token, hex; the token itself is never stored. */
  id: string;
  user_id: string;
  remember: number;
  created_at: string;
  expires_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
