import { useEffect } from 'react';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { profiles, useProfiles } from './store.ts';

export type Loaded =
  | { state: 'loading' }
  | { state: 'found'; user: CurrentUser; themeWord: unknown }
  | { state: 'missing' }
  | { state: 'error' };

/**
 * The profile's owner: the session's own user, or read by username while the page shows it (and
 * again when back online; a failed refresh keeps the profile already shown).
 */
export function useProfile(username: string, me: CurrentUser | null): Loaded {
  const isMe = me !== null && me.username.toLowerCase() === username.toLowerCase();
  const entry = useProfiles((state) => state.profiles[username]);
  useEffect(() => (isMe ? undefined : profiles.show(username)), [username, isMe]);
  if (isMe) return { state: 'found', user: me, themeWord: me.theme };
  switch (entry?.status) {
    case undefined:
    case 'loading':
      return { state: 'loading' };
    case 'error':
      return { state: 'error' };
    case 'missing':
      return { state: 'missing' };
    case 'ready':
      return entry.value ? { state: 'found', ...entry.value } : { state: 'missing' };
  }
}
