import { useEffect, useState } from 'react';
import { SETTINGS_USERNAME_DEBOUNCE_MS } from '../../contracts/constants.ts';
import { authApi } from './api.ts';
import { type Availability, isCheckableUsername } from './signupForm.ts';

/**
 * Asks the server after a pause in typing, only for a name that keeps the rule (3 or more
 * characters, and the settings charset); anything else stays unknown. A failed check is unknown.
 */
export function useUsernameAvailability(username: string): Availability {
  const [result, setResult] = useState<{ name: string; availability: Availability }>({
    name: '',
    availability: 'unknown',
  });
  const name = username.trim();
  const checkable = isCheckableUsername(name);
  useEffect(() => {
    if (!checkable) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      authApi.checkUsername(name, controller.signal).then(
        ({ available }) =>
          setResult({ name, availability: available ? 'available' : 'unavailable' }),
        () => {
          if (!controller.signal.aborted) setResult({ name, availability: 'unknown' });
        },
      );
    }, SETTINGS_USERNAME_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [name, checkable]);
  return checkable && result.name === name ? result.availability : 'unknown';
}
