/**
 * Friend statuses and counts (docs/product.md "Friends"). The acting tab learns a change from the
 * call's answer; every tab of both members, this one included, from the friend event; the acting
 * member's other tabs in this browser also hear it over `orbit:friends`, and ask the server 300 ms
 * later only when no friend event has told them meanwhile (docs/architecture.md "Client state").
 */
import { create } from 'zustand';
import {
  CHANNELS,
  COUNTS_REFRESH_DEBOUNCE_MS,
  CROSS_TAB_REFETCH_MS,
  FRIEND_STATUS_CACHE_MS,
  OPTIMISTIC_GUARD_MS,
  WINDOW_EVENTS,
} from '../../lib/constants.ts';
import {
  FRIEND_STATUS_RANK,
  type FriendCounts,
  type FriendStatus,
} from '../../contracts/friends.ts';
import type { FriendEvent, FriendEventPayload } from '../../contracts/realtime.ts';
import { openChannel } from '../../lib/crossTab.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import { createServerState, isQueued, whileShown } from '../../lib/serverState.ts';
import { onWaitingItems, waitingItems } from '../offline/waiting.ts';
import { type FriendAction, friendsApi } from './api.ts';
import { STATUS_AFTER, waitingAnswers } from './waiting.ts';

/** What a tab tells this member's other tabs after a friend action (docs/product.md "Friends"). */
type FriendChangeType = 'requested' | 'canceled' | 'accepted' | 'declined' | 'removed';
export interface FriendChange {
  type: FriendChangeType;
  userId: string;
}

interface Known {
  status: FriendStatus;
  fetchedAt: number;
}

interface FriendsState {
  statuses: Record<string, Known>;
  /** Members with a friend call in flight: a second action waits (docs/product.md "Friends"). */
  busy: Record<string, true>;
  /** Until when a realtime update may not lower a member's status. */
  guardUntil: Record<string, number>;
  counts: FriendCounts;
  /** The member's status, from the 30 s cache or the server. */
  fetchStatus: (userId: string, options?: { force?: boolean }) => Promise<FriendStatus>;
  /**
   * The member's status while it is on screen: read now (from the cache while fresh) and again at
   * every (re)connect, since a friend event sent before the socket joined is never heard; answers
   * the function that stops.
   */
  show: (userId: string) => () => void;
  /** Remembers statuses learnt elsewhere (search rows), without overriding a guarded one. */
  learn: (statuses: Record<string, FriendStatus>) => void;
  /**
   * Optimistic friend action; answers whether the server agreed (`sent`), the offline outbox kept
   * it to send when back (`queued`: the change stands, marked waiting), or it failed and reverted.
   */
  act: (action: FriendAction, userId: string, username?: string) => Promise<FriendOutcome>;
  /** A realtime or cross-tab update; lowering a fresh local status is ignored for 2.5 s. */
  applyRemote: (userId: string, status: FriendStatus) => void;
  refreshCounts: () => Promise<void>;
  reset: () => void;
}

type FriendOutcome = 'sent' | 'queued' | 'failed';

const OPTIMISTIC: Record<FriendAction, FriendStatus> = {
  request: 'pending',
  cancel: 'none',
  accept: 'friends',
  decline: 'none',
  unfriend: 'none',
};
const CHANGE_OF: Record<FriendAction, FriendChangeType> = {
  request: 'requested',
  cancel: 'canceled',
  accept: 'accepted',
  decline: 'declined',
  unfriend: 'removed',
};
const EMPTY_COUNTS: FriendCounts = { incoming: 0, outgoing: 0, friends: 0 };
/** Status requests, re-checks and the counts refresh; reset() cancels them all. */
const server = createServerState();
/** Current until the store resets: an answer for the member who left is dropped. */
const untilReset = () => server.current('member');
let channel: ReturnType<typeof openChannel> | null = null;

export const useFriends = create<FriendsState>()((set, get) => ({
  statuses: {},
  busy: {},
  guardUntil: {},
  counts: EMPTY_COUNTS,

  async fetchStatus(userId, options = {}) {
    const known = get().statuses[userId];
    if (!options.force && known && server.isFresh(known.fetchedAt, FRIEND_STATUS_CACHE_MS))
      return known.status;
    return server.dedupe(userId, async () => {
      const ticket = untilReset();
      const status = await friendsApi.status(userId);
      if (!ticket.current) return status;
      if (!get().busy[userId]) get().applyRemote(userId, status);
      return get().statuses[userId]?.status ?? status;
    });
  },

  show(userId) {
    const read = (force: boolean) =>
      get()
        .fetchStatus(userId, { force })
        .catch((error: unknown) => console.warn('Could not load friend status', error));
    void read(false);
    return whileShown(() => void read(true), { live: true });
  },

  learn(statuses) {
    for (const [userId, status] of Object.entries(statuses)) get().applyRemote(userId, status);
  },

  async act(action, userId, username) {
    if (get().busy[userId]) return 'failed';
    set((state) => ({ busy: { ...state.busy, [userId]: true } }));
    const ticket = untilReset();
    const outcome = await server.optimistic(
      () => {
        const previous = get().statuses[userId];
        set((state) => ({
          statuses: {
            ...state.statuses,
            [userId]: { status: OPTIMISTIC[action], fetchedAt: Date.now() },
          },
          guardUntil: { ...state.guardUntil, [userId]: Date.now() + OPTIMISTIC_GUARD_MS },
        }));
        return () =>
          set((state) => {
            const statuses = { ...state.statuses };
            if (previous) statuses[userId] = previous;
            else delete statuses[userId];
            return { statuses };
          });
      },
      () => friendsApi.act(action, userId, username),
    );
    if (!ticket.current) return 'failed';
    set((state) => {
      const busy = { ...state.busy };
      delete busy[userId];
      return {
        busy,
        ...(outcome.ok
          ? {
              statuses: {
                ...state.statuses,
                [userId]: { status: outcome.value, fetchedAt: Date.now() },
              },
            }
          : {}),
      };
    });
    // Kept in the offline outbox: the change stands, and is told once the server has it.
    if (!outcome.ok) return isQueued(outcome.error) ? 'queued' : 'failed';
    scheduleCounts();
    announce({ type: CHANGE_OF[action], userId });
    return 'sent';
  },

  applyRemote(userId, heard) {
    // An answer the member gave offline stands until the server has it.
    const waiting = waitingAnswers(waitingItems()).get(userId);
    const status = waiting ? STATUS_AFTER[waiting] : heard;
    const current = get().statuses[userId]?.status;
    const guardLeft = (get().guardUntil[userId] ?? 0) - Date.now();
    if (current && guardLeft > 0 && FRIEND_STATUS_RANK[status] < FRIEND_STATUS_RANK[current]) {
      // Ignored for now, not forgotten: once the guard ends, the server says which one holds.
      server.later(
        () =>
          void get()
            .fetchStatus(userId, { force: true })
            .catch(() => undefined),
        guardLeft + 50,
      );
      return;
    }
    set((state) => ({
      statuses: { ...state.statuses, [userId]: { status, fetchedAt: Date.now() } },
    }));
  },

  async refreshCounts() {
    const ticket = untilReset();
    try {
      const counts = await friendsApi.counts();
      if (ticket.current) set({ counts });
    } catch (error) {
      console.warn('Could not refresh friend counts', error);
    }
  },

  reset() {
    server.reset();
    set({ statuses: {}, busy: {}, guardUntil: {}, counts: EMPTY_COUNTS });
  },
}));

/** Counts follow events after a short pause, so a burst costs one call (docs/product.md "Realtime"). */
export function scheduleCounts() {
  server.debounce(
    'counts',
    () => void useFriends.getState().refreshCounts(),
    COUNTS_REFRESH_DEBOUNCE_MS,
  );
}

/** The status a friend event leaves, seen by `meId`. */
export function statusAfterEvent(
  event: FriendEvent,
  payload: FriendEventPayload,
  meId: string,
): FriendStatus {
  switch (event) {
    case 'friend:request:created':
      return payload.fromUserId === meId ? 'pending' : 'incoming';
    case 'friend:accepted':
      return 'friends';
    case 'friend:request:canceled':
    case 'friend:declined':
    case 'friend:removed':
      return 'none';
  }
}

/** The other member of an event, from `meId`'s side; payloads may also carry a pair (a, b). */
export function otherMember(
  payload: FriendEventPayload & { a?: string; b?: string },
  meId: string,
): string | null {
  const from = payload.fromUserId ?? payload.a;
  const to = payload.toUserId ?? payload.b;
  if (from === meId) return to ?? null;
  if (to === meId) return from ?? null;
  return null;
}

export function receiveFriendEvent(event: FriendEvent, payload: FriendEventPayload, meId: string) {
  const other = otherMember(payload, meId);
  if (!other) return;
  useFriends.getState().applyRemote(other, statusAfterEvent(event, payload, meId));
  scheduleCounts();
}

function announce(change: FriendChange) {
  channel?.post(change);
  window.dispatchEvent(new CustomEvent(WINDOW_EVENTS.friendsChanged, { detail: change }));
}

/**
 * Another tab of this member changed a relation: ask the server 300 ms later (docs/product.md
 * "Friends"), unless a friend event has brought the member's status in the meantime, so the one
 * change is taken once (docs/architecture.md "Client state").
 */
export function receiveFriendChange(data: unknown) {
  const change = data as Partial<FriendChange> | null;
  if (!change || typeof change.userId !== 'string') return;
  const { userId } = change;
  const heardAt = Date.now();
  server.debounce(
    `change:${userId}`,
    () => {
      if ((useFriends.getState().statuses[userId]?.fetchedAt ?? 0) >= heardAt) return;
      void useFriends
        .getState()
        .fetchStatus(userId, { force: true })
        .catch(() => undefined);
      scheduleCounts();
    },
    CROSS_TAB_REFETCH_MS,
  );
}

/** Listens on `orbit:friends` for this member's other tabs; answers the function that stops. */
export function connectFriendsAcrossTabs(): () => void {
  channel = openChannel(CHANNELS.friends, receiveFriendChange);
  return () => {
    channel?.close();
    channel = null;
  };
}

joinMemberState('friends', { reset: () => useFriends.getState().reset() });

// An answer the member gave offline shows as soon as the outbox lists it, even over a status read
// from the saved copies (docs/decisions.md "The offline outbox"); once it is sent or refused, what
// is shown is read again.
onWaitingItems((items) => {
  const answers = waitingAnswers(items);
  if (answers.size === 0) return;
  useFriends.setState((state) => {
    const statuses = { ...state.statuses };
    // Only statuses held: one not read yet gets the answer on top when it is read.
    for (const [userId, action] of answers) {
      const held = statuses[userId];
      if (held && held.status !== STATUS_AFTER[action])
        statuses[userId] = { ...held, status: STATUS_AFTER[action] };
    }
    return { statuses };
  });
});
