import { hash, randomBytes } from 'node:crypto';

/** 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The session id a token is stored and remembered under; one-shot, as it runs on every request. */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

const REFERRAL_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Eight characters without look-alikes (0/O, 1/I). */
export function newReferralCode(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (byte) => REFERRAL_ALPHABET[byte % REFERRAL_ALPHABET.length]).join('');
}
