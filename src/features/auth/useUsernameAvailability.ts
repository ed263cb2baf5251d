import { useEffect, useState } from 'react';
import { SETTINGS_USERNAME_DEBOUNCE_MS, USERNAME_MIN } from '../../contracts/constants.ts';
import { authApi } from './api.ts';
import type { Availability } from './signupForm.ts';

/** Asks the server after a pause in typing, only for names of 3 or more characters; a failed check is unknown. */
export function useUsernameAvailability(username: string): Availability {
  const [result, setResult] = useState<{ name: string; availability: Availability }>({
    name: '',
    availability: 'unknown',
  });
  const name = username.trim();
  useEffect(() => {
    if (name.length < USERNAME_MIN) return;
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
  }, [name]);
  return name.length >= USERNAME_MIN && result.name === name ? result.availability : 'unknown';
}
