/**
 * When a length-limited field shows how much room is left. The field itself stops at the limit
 * (maxLength, the same number the server enforces); the counter only appears once the member is
 * close, so it does not clutter a short name or answer.
 */
import { countOf } from '../lib/words.ts';

/** The counter appears from this share of the limit on. */
const NEAR_LIMIT_SHARE = 0.8;

export function isNearLimit(length: number, max: number): boolean {
  return length >= Math.ceil(max * NEAR_LIMIT_SHARE);
}

export function charactersLeft(length: number, max: number): string {
  return `${countOf(Math.max(0, max - length), 'character', 'characters')} left`;
}
