/**
 * Leaving (docs/product.md "Leaving"): what this tab does once the account is deleted, and when it
 * last started a download of the member's data.
 */
import { EXPORT_INTERVAL_MS } from '../../contracts/safety.ts';
import { STORAGE_KEYS } from '../../lib/constants.ts';
import { readLocal, removeLocal, writeLocal } from '../../lib/storage.ts';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';

export const ACCOUNT_DELETED = 'Your account has been deleted.';

const exportKey = (userId: string) => `orbit:export:${userId}`;

/**
 * Whether this browser started a download of the member's data less than 10 minutes ago. The
 * server counts every download; this only lets the page say so before the browser asks it.
 */
export function exportedRecently(userId: string, now = Date.now()): boolean {
  const at = Number(readLocal(exportKey(userId)));
  return Number.isFinite(at) && at > 0 && now - at >= 0 && now - at < EXPORT_INTERVAL_MS;
}

export function noteExportStarted(userId: string, now = Date.now()): void {
  writeLocal(exportKey(userId), String(now));
}

/**
 * The account is gone: the session ends in this tab, which empties everything held of the member
 * and their offline copies (src/lib/memberState.ts), and through the usual logout message in every
 * other tab of this browser. Tabs elsewhere lose their socket with the account and find nobody
 * signed in.
 */
export async function endDeletedAccount(user: CurrentUser): Promise<void> {
  removeLocal(exportKey(user.id));
  removeLocal(STORAGE_KEYS.themeFor(user.id));
  await useSession.getState().logout();
}
