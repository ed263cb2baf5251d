import type { RelayEvent } from '../../src/contracts/push.ts';
import { pairKey } from '../../src/contracts/friends.ts';

/** A push not delivered because its recipient's or sender's account was deleted meanwhile. */
export const MEMBER_GONE = 'the member’s account was deleted';
/** A push not delivered because one of the two blocked the other meanwhile. */
export const PAIR_BLOCKED = 'one of the two members blocked the other';

/**
 * Deleted members remembered, so that an event about one that arrives after the word (from
 * another node) is dropped too; the oldest are forgotten past this many. Catch-up never brings
 * such an event: the server deleted its notification with the account.
 */
const GONE_REMEMBERED = 10_000;

/**
 * Blocks remembered, so that an event between the two written before the block that reaches the
 * relay after the word (from another node, or held while catching up) is dropped too; the oldest
 * are forgotten past this many. Catch-up never brings such an event: the block deleted its
 * notification.
 */
const BLOCKS_REMEMBERED = 10_000;

/** What the server said is not to be pushed any more: deleted accounts and blocks. */
export class Withheld {
  readonly #goneMembers = new Set<string>();
  /** Pairs blocked lately (pair key → the newest event id when the block was written). */
  readonly #blockedPairs = new Map<string, number>();

  /** Why this event is not to be pushed any more, if it is not. */
  reason(event: RelayEvent): string | undefined {
    const actorId = event.payload.actor.id;
    if (this.#goneMembers.has(event.recipientId) || this.#goneMembers.has(actorId))
      return MEMBER_GONE;
    const upTo = this.#blockedPairs.get(pairKey(event.recipientId, actorId));
    return upTo !== undefined && event.payload.id <= upTo ? PAIR_BLOCKED : undefined;
  }

  membersGone(memberIds: readonly string[]): void {
    for (const memberId of memberIds) {
      this.#goneMembers.delete(memberId);
      this.#goneMembers.add(memberId);
    }
    forgetOldest(this.#goneMembers, GONE_REMEMBERED);
  }

  pairBlocked(memberIds: readonly [string, string], upTo: number): void {
    const key = pairKey(...memberIds);
    const newest = Math.max(upTo, this.#blockedPairs.get(key) ?? 0);
    this.#blockedPairs.delete(key);
    this.#blockedPairs.set(key, newest);
    forgetOldest(this.#blockedPairs, BLOCKS_REMEMBERED);
  }
}

function forgetOldest(remembered: Set<string> | Map<string, unknown>, most: number): void {
  for (const oldest of remembered.keys()) {
    if (remembered.size <= most) break;
    remembered.delete(oldest);
  }
}
