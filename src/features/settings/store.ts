/**
 * What the settings page reads from the server (docs/product.md "Settings", "Blocking"): the
 * member afresh when the page opens, and the members they blocked, through the server-state helper.
 * Both are read when shown and again when the connection comes back.
 */
import type { BlockedMember } from '../../contracts/safety.ts';
import { createEntryStore } from '../../lib/serverState.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { settingsApi } from './api.ts';

/** The one key of each entry: the signed-in member's own. */
export const OWN = 'me';

const store = createEntryStore<{
  /** GET /api/auth/me as the page opened; null when it named nobody. */
  member: CurrentUser | null;
  blocks: BlockedMember[];
}>('settings', {
  member: { fetch: () => settingsApi.me() },
  blocks: { fetch: async () => (await settingsApi.blocks()).users },
});

export const useSettingsData = store.use;
export const { member: freshMember, blocks: blockList } = store.entries;
