/**
 * Username availability on the settings page (docs/product.md "Settings", "Validation rules"): the server is asked after a pause in
 * typing, and only for a valid name that differs, ignoring case, from the member's current one.
 */
import { useEffect, useState } from 'react';
import type { CheckUsernameResponse } from '../../contracts/auth.ts';
import { SETTINGS_USERNAME_DEBOUNCE_MS } from '../../contracts/constants.ts';
import { isValidUsername } from '../../contracts/validation.ts';
import { settingsApi } from './api.ts';

export type UsernameAvailability =
  'idle' | 'current' | 'checking' | 'available' | 'taken' | 'unknown';

export const AVAILABILITY_TEXT: Record<UsernameAvailability, string> = {
  idle: '',
  current: 'Current username',
  checking: 'Checking…',
  available: 'Available ✓',
  taken: 'Taken ✕',
  unknown: '',
};

export type CheckUsername = (
  username: string,
  signal: AbortSignal,
) => Promise<CheckUsernameResponse>;

/** What a name needs before any answer: nothing, the current-name label, or a server check. */
export function usernamePlan(username: string, current: string): 'idle' | 'current' | 'check' {
  const name = username.trim();
  if (!isValidUsername(name)) return 'idle';
  return name.toLowerCase() === current.trim().toLowerCase() ? 'current' : 'check';
}

export function availabilityOf(response: CheckUsernameResponse): UsernameAvailability {
  if (response.reason === 'current') return 'current';
  if (response.available) return 'available';
  return response.reason === 'invalid' ? 'unknown' : 'taken';
}

/** Waits out the pause, then asks; a failed check is unknown. Answers a cancel function. */
export function scheduleUsernameCheck(
  username: string,
  check: CheckUsername,
  onResult: (availability: UsernameAvailability) => void,
  delayMs: number = SETTINGS_USERNAME_DEBOUNCE_MS,
): () => void {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    check(username, controller.signal).then(
      (response) => {
        if (!controller.signal.aborted) onResult(availabilityOf(response));
      },
      () => {
        if (!controller.signal.aborted) onResult('unknown');
      },
    );
  }, delayMs);
  return () => {
    clearTimeout(timer);
    controller.abort();
  };
}

/** The availability shown beside the username while Basic Info is being edited. */
export function useUsernameCheck(
  username: string,
  current: string,
  enabled: boolean,
  check: CheckUsername = settingsApi.checkUsername,
): UsernameAvailability {
  const name = username.trim();
  const plan = enabled ? usernamePlan(name, current) : 'idle';
  const [answer, setAnswer] = useState<{ name: string; availability: UsernameAvailability } | null>(
    null,
  );
  useEffect(() => {
    if (plan !== 'check') return;
    return scheduleUsernameCheck(name, check, (availability) => setAnswer({ name, availability }));
  }, [name, plan, check]);
  if (plan !== 'check') return plan;
  return answer?.name === name ? answer.availability : 'checking';
}
