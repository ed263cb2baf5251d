/**
 * What a profile page shows of its owner (docs/product.md "Profile"): the member and their friends,
 * by username, through the server-state helper. Each is read when shown, and again when the
 * connection comes back; no socket event changes them.
 */
import { create } from 'zustand';
import type { FriendListItemView as FriendListItem } from '../../contracts/friends.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { type Entry, createEntries, createServerState } from '../../lib/serverState.ts';
import { type CurrentUser, normaliseUser } from '../auth/user.ts';
import { friendsApi } from '../friends/api.ts';
import { profileApi } from './api.ts';
import { themeWordOf } from './theme.ts';

/** A profile as read: the member, or null when the answer named nobody. */
export type ProfileValue = { user: CurrentUser; themeWord: unknown } | null;

interface ProfileState {
  profiles: Record<string, Entry<ProfileValue>>;
  friends: Record<string, Entry<FriendListItem[]>>;
  reset: () => void;
}

const server = createServerState();

export const useProfiles = create<ProfileState>()((set) => ({
  profiles: {},
  friends: {},
  reset() {
    server.reset();
    set({ profiles: {}, friends: {} });
  },
}));

export const profiles = createEntries<ProfileValue>(server, {
  get: () => useProfiles.getState().profiles,
  set: (entries) => useProfiles.setState({ profiles: entries }),
  fetch: async (username, signal) => {
    const body = await profileApi.byUsername(username, signal);
    const user = normaliseUser(body);
    return user ? { user, themeWord: themeWordOf(body) } : null;
  },
});

export const ownerFriends = createEntries<FriendListItem[]>(server, {
  get: () => useProfiles.getState().friends,
  set: (entries) => useProfiles.setState({ friends: entries }),
  fetch: (username) => friendsApi.list(username),
});

joinMemberState('profiles', () => useProfiles.getState().reset());
