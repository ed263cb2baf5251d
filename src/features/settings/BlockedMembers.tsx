import { useEffect, useState } from 'react';
import type { BlockedMember } from '../../contracts/safety.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { breakable } from '../../components/breakable.tsx';
import { HttpError } from '../../lib/http.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { settingsApi } from './api.ts';
import { useRefocusAfterRemoval } from './useRefocusAfterRemoval.ts';
import { SAVE_MESSAGES } from './saveError.ts';
import { OWN, blockList, useSettingsData } from './store.ts';

const NO_BLOCKS = 'You haven’t blocked anyone.';
const BLOCKS_LOAD_FAILED = 'Could not load the members you blocked.';
/** A member the block keeps no name of: they had blocked this member first. */
const UNNAMED_BLOCKED = 'A member you blocked';
const unblockedToast = (username: string | null) =>
  username === null ? 'Member unblocked' : `Unblocked @${username}`;
const unblockLabel = (member: BlockedMember) =>
  member.username === null ? 'Unblock a member you blocked' : `Unblock @${member.username}`;

/** What a failed unblock says: the server's words when it gave any. */
function unblockError(error: unknown): string {
  if (error instanceof HttpError && error.status === 401) return SAVE_MESSAGES.signedOut;
  if (error instanceof HttpError && error.serverMessage) return error.serverMessage;
  return SAVE_MESSAGES.failed;
}

/**
 * Settings → Blocked members (docs/product.md "Blocking"): the members one has blocked, each with
 * Unblock. Unblocking brings back nothing the block ended, so it asks nothing first. Each is named
 * as the block kept them, beside the default picture: the block hides their picture as everything
 * else they show now (docs/decisions.md "The block list names whom one blocked as one knew them").
 */
export function BlockedMembers({ onToast }: { onToast: (message: string) => void }) {
  const listing = useSettingsData((state) => state.blocks[OWN]);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const needsNetwork = useNeedsNetwork();
  // Read when the page opens, and again when the connection comes back.
  useEffect(() => blockList.show(OWN), []);
  // Where the unblocked row was: focus goes to the Unblock now there, or to the title.
  const { listRef, refocusAtRef } = useRefocusAfterRemoval('settings-blocked-title', listing);

  const unblock = async (member: BlockedMember) => {
    setBusy((now) => new Set(now).add(member.id));
    try {
      await settingsApi.unblock(member.id);
      refocusAtRef.current = listing?.value?.findIndex((user) => user.id === member.id) ?? 0;
      blockList.patch(OWN, (users) => users.filter((user) => user.id !== member.id));
      onToast(unblockedToast(member.username));
    } catch (error) {
      onToast(unblockError(error));
    } finally {
      setBusy((now) => {
        const next = new Set(now);
        next.delete(member.id);
        return next;
      });
    }
  };

  if (!listing || listing.status === 'loading') return <p role="status">Loading…</p>;
  if (listing.status !== 'ready') {
    return (
      <p className="settings-note" role="alert">
        {BLOCKS_LOAD_FAILED}{' '}
        <button
          type="button"
          className="button ghost"
          onClick={() => void blockList.load(OWN, { force: true })}
        >
          Try again
        </button>
      </p>
    );
  }
  const users = listing.value ?? [];
  if (users.length === 0) return <p className="settings-note">{NO_BLOCKS}</p>;
  return (
    <ul className="settings-blocked" ref={listRef}>
      {users.map((member) => (
        <li key={member.id}>
          <Avatar src="" username={member.username ?? ''} size={40} decorative />
          <span className="settings-blocked-name">
            {member.username === null ? UNNAMED_BLOCKED : breakable(`@${member.username}`)}
          </span>
          <button
            type="button"
            className="button"
            aria-label={unblockLabel(member)}
            {...needsNetwork(busy.has(member.id))}
            onClick={() => void unblock(member)}
          >
            Unblock
          </button>
        </li>
      ))}
    </ul>
  );
}
