import type { FriendAction } from './api.ts';

/**
 * Every text a friend action shows, declared once (docs/product.md "Errors"). The places differ on
 * purpose: the profile toasts each outcome, search rows say only a failed send or cancel and let
 * a failed accept or decline revert quietly, and the bell and panel only revert.
 */

/** The profile's toasts for each action's success and failure (docs/product.md "Profile"). */
export const PROFILE_TOASTS: Record<FriendAction, { ok: string | null; failed: string }> = {
  request: { ok: 'Friend request sent', failed: 'Could not send request.' },
  cancel: { ok: null, failed: 'Could not cancel.' },
  accept: { ok: 'You are now friends', failed: 'Could not accept.' },
  decline: { ok: null, failed: 'Could not decline.' },
  unfriend: { ok: 'Removed from friends', failed: 'Could not unfriend.' },
};

/** What a search row says when its action fails (docs/product.md "Errors"); others say nothing. */
export const SEARCH_FAILURES: Partial<Record<FriendAction, string>> = {
  request: 'Couldn’t send request.',
  cancel: 'Couldn’t cancel request.',
};
