/**
 * What the settings page reads from the server (docs/product.md "Settings", "Blocking"): the
 * member afresh when the page opens, and the members they blocked, through the server-state helper.
 * Both are read when shown and again when the connection comes back.
 */
import { create } from 'zustand';
import type { BlockedMember } from '../../contracts/safety.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { type Entry, createEntries, createServerState } from '../../lib/serverState.ts';
import { type CurrentUser, normaliseUser } from '../auth/user.ts';
import { settingsApi } from './api.ts';

/** The one key of each entry: the signed-in member's own. */
export const OWN = 'me';

interface SettingsStore {
  /** GET /api/auth/me as the page opened; null when it named nobody. */
  member: Record<string, Entry<CurrentUser | null>>;
  blocks: Record<string, Entry<BlockedMember[]>>;
  reset: () => void;
}

const server = createServerState();

export const useSettingsData = create<SettingsStore>()((set) => ({
  member: {},
  blocks: {},
  reset() {
    server.reset();
    set({ member: {}, blocks: {} });
  },
}));

export const freshMember = createEntries<CurrentUser | null>(server, {
  get: () => useSettingsData.getState().member,
  set: (member) => useSettingsData.setState({ member }),
  fetch: async () => normaliseUser(await settingsApi.me()),
});

export const blockList = createEntries<BlockedMember[]>(server, {
  get: () => useSettingsData.getState().blocks,
  set: (blocks) => useSettingsData.setState({ blocks }),
  fetch: async () => (await settingsApi.blocks()).users,
});

joinMemberState('settings', () => useSettingsData.getState().reset());
