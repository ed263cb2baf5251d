import { useEffect, useState } from 'react';
import { HttpError } from '../../lib/http.ts';
import { type CurrentUser, normaliseUser } from '../auth/user.ts';
import { useReconnects } from '../offline/store.ts';
import { profileApi } from './api.ts';
import { themeWordOf } from './theme.ts';

export type Loaded =
  | { state: 'loading' }
  | { state: 'found'; user: CurrentUser; themeWord: unknown }
  | { state: 'missing' }
  | { state: 'error' };

/** The profile's owner: the session's own user, or fetched by username (again when back online). */
export function useProfile(username: string, me: CurrentUser | null): Loaded {
  const isMe = me !== null && me.username.toLowerCase() === username.toLowerCase();
  const [loaded, setLoaded] = useState<{ for: string; value: Loaded }>({
    for: '',
    value: { state: 'loading' },
  });
  const reconnects = useReconnects();
  useEffect(() => {
    if (isMe) return;
    const controller = new AbortController();
    profileApi.byUsername(username, controller.signal).then(
      (body) => {
        const user = normaliseUser(body);
        setLoaded({
          for: username,
          value: user
            ? { state: 'found', user, themeWord: themeWordOf(body) }
            : { state: 'missing' },
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const missing = error instanceof HttpError && error.status === 404;
        // A failed refresh keeps the profile already shown.
        setLoaded((current) =>
          !missing && current.for === username && current.value.state === 'found'
            ? current
            : { for: username, value: { state: missing ? 'missing' : 'error' } },
        );
      },
    );
    return () => controller.abort();
  }, [username, isMe, reconnects]);
  if (isMe) return { state: 'found', user: me, themeWord: me.theme };
  return loaded.for === username ? loaded.value : { state: 'loading' };
}
