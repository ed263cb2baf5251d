import { useEffect } from 'react';
import type { FriendListItem } from '../../contracts/friends.ts';
import { ownerFriends, useProfiles } from './store.ts';

export type OwnerFriends =
  | { status: 'loading'; items: FriendListItem[] }
  | { status: 'ready'; items: FriendListItem[] }
  | { status: 'error'; items: FriendListItem[] };

const NONE: FriendListItem[] = [];

/**
 * The owner's friends; read again whenever `refreshKey` changes (a friend action on this page)
 * and when the connection comes back.
 */
export function useOwnerFriends(username: string, refreshKey: string): OwnerFriends {
  const entry = useProfiles((state) => state.friends[username]);
  useEffect(() => ownerFriends.show(username), [username, refreshKey]);
  switch (entry?.status) {
    case undefined:
    case 'loading':
      return { status: 'loading', items: NONE };
    case 'ready':
      return { status: 'ready', items: entry.value ?? NONE };
    case 'error':
    case 'missing':
      return { status: 'error', items: NONE };
  }
}
