import { useEffect, useState } from 'react';
import type { FriendListItemView as FriendListItem } from '../../contracts/friends.ts';
import { friendsApi } from '../friends/api.ts';
import { useReconnects } from '../offline/store.ts';

export type OwnerFriends =
  | { status: 'loading'; items: FriendListItem[] }
  | { status: 'ready'; items: FriendListItem[] }
  | { status: 'error'; items: FriendListItem[] };

/**
 * The owner's friends; fetched again whenever `refreshKey` changes (a friend action on this page)
 * and when the connection comes back.
 */
export function useOwnerFriends(username: string, refreshKey: string): OwnerFriends {
  const [result, setResult] = useState<{ for: string; value: OwnerFriends }>({
    for: '',
    value: { status: 'loading', items: [] },
  });
  const reconnects = useReconnects();
  useEffect(() => {
    let live = true;
    friendsApi.list(username).then(
      (items) => {
        if (live) setResult({ for: username, value: { status: 'ready', items } });
      },
      () => {
        if (live)
          setResult((current) => ({
            for: username,
            value: { status: 'error', items: current.for === username ? current.value.items : [] },
          }));
      },
    );
    return () => {
      live = false;
    };
  }, [username, refreshKey, reconnects]);
  return result.for === username ? result.value : { status: 'loading', items: [] };
}

/** The friend a list entry names: the nested user when present, else the flat fields. */
export function friendOf(item: FriendListItem): {
  id: string;
  username: string;
  profileImage: string;
} {
  const user = item.user as Partial<FriendListItem['user']> | undefined;
  return {
    id: user?.id || user?._id || item._id,
    username: user?.username || item.username,
    profileImage: user?.profileImage || item.profileImage || '',
  };
}
