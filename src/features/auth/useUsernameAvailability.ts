/**
 * Username availability, for signup and settings alike (docs/product.md "Signup", "Settings",
 * "Validation rules"): the server is asked after a pause in typing, only for a name that keeps the
 * rule and differs, ignoring case, from the member's current one. A failed check is unknown.
 */
import { useEffect, useState } from 'react';
import type { CheckUsernameResponse } from '../../contracts/auth.ts';
import { SETTINGS_USERNAME_DEBOUNCE_MS } from '../../lib/constants.ts';
import { isValidUsername } from '../../contracts/validation.ts';

export type UsernameAvailability =
  'idle' | 'current' | 'checking' | 'available' | 'taken' | 'unknown';

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

interface Options {
  /** The member's current name (settings); it reads `current` without asking. */
  current?: string;
  /** Off: `idle`, nothing asked (settings while Basic Info is not being edited). */
  enabled?: boolean;
}

/** The availability of `username`, asked through `check` (the signup or the settings endpoint). */
export function useUsernameAvailability(
  username: string,
  check: CheckUsername,
  { current = '', enabled = true }: Options = {},
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
