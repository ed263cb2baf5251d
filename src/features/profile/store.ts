/**
 * What a profile page shows of its owner (docs/product.md "Profile"): the member and their friends,
 * by username, through the server-state helper. Each is read when shown, and again when the
 * connection comes back; no socket event changes them.
 */
import type { FriendListItem } from '../../contracts/friends.ts';
import { createEntryStore } from '../../lib/serverState.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { friendsApi } from '../friends/api.ts';
import { profileApi } from './api.ts';

/** A profile as read: the member, or null when the answer named nobody. */
type ProfileValue = { user: CurrentUser; themeWord: unknown } | null;

const store = createEntryStore<{ profiles: ProfileValue; friends: FriendListItem[] }>('profiles', {
  profiles: {
    fetch: async (username, signal) => {
      const { user, themeWord } = await profileApi.byUsername(username, signal);
      return user ? { user, themeWord } : null;
    },
  },
  friends: { fetch: (username) => friendsApi.list(username) },
});

export const useProfiles = store.use;
export const { profiles, friends: ownerFriends } = store.entries;
