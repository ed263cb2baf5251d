import { create } from 'zustand';
import {
  CHANNELS,
  COUNTS_REFRESH_DEBOUNCE_MS,
  CROSS_TAB_REFETCH_MS,
  FRIEND_STATUS_CACHE_MS,
  OPTIMISTIC_GUARD_MS,
  WINDOW_EVENTS,
} from '../../contracts/constants.ts';
import {
  FRIEND_STATUS_RANK,
  type FriendCounts,
  type FriendStatus,
} from '../../contracts/friends.ts';
import type { FriendEvent, FriendEventPayload } from '../../contracts/realtime.ts';
import { openChannel } from '../../lib/crossTab.ts';
import { createServerState } from '../../lib/serverState.ts';
import { type FriendAction, friendsApi } from './api.ts';

interface Known {
  status: FriendStatus;
  fetchedAt: number;
}

/** What the other tabs hear after a friend action here (docs/product.md "Friends"). */
export type FriendChangeType = 'requested' | 'canceled' | 'accepted' | 'declined' | 'removed';
export interface FriendChange {
  type: FriendChangeType;
  userId: string;
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
  /** Remembers statuses learnt elsewhere (search rows), without overriding a guarded one. */
  learn: (statuses: Record<string, FriendStatus>) => void;
  /** Optimistic friend action; answers whether the server agreed. */
  act: (action: FriendAction, userId: string, username?: string) => Promise<boolean>;
  /** A realtime or cross-tab update; lowering a fresh local status is ignored for 2.5 s. */
  applyRemote: (userId: string, status: FriendStatus) => void;
  refreshCounts: () => Promise<void>;
  reset: () => void;
}

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
      const status = await friendsApi.status(userId);
      if (!get().busy[userId]) get().applyRemote(userId, status);
      return get().statuses[userId]?.status ?? status;
    });
  },

  learn(statuses) {
    for (const [userId, status] of Object.entries(statuses)) get().applyRemote(userId, status);
  },

  async act(action, userId, username) {
    if (get().busy[userId]) return false;
    set((state) => ({ busy: { ...state.busy, [userId]: true } }));
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
    if (!outcome.ok) return false;
    announce({ type: CHANGE_OF[action], userId });
    scheduleCounts();
    return true;
  },

  applyRemote(userId, status) {
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
    try {
      set({ counts: await friendsApi.counts() });
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

/** Another tab changed a relation: ask the server again a moment later (docs/product.md "Friends": 300 ms). */
export function receiveFriendChange(data: unknown) {
  const change = data as Partial<FriendChange> | null;
  if (!change || typeof change.userId !== 'string') return;
  const { userId } = change;
  server.later(() => {
    void useFriends
      .getState()
      .fetchStatus(userId, { force: true })
      .catch(() => undefined);
    scheduleCounts();
  }, CROSS_TAB_REFETCH_MS);
}

export function connectFriendsAcrossTabs(): () => void {
  channel = openChannel(CHANNELS.friends, receiveFriendChange);
  return () => {
    channel?.close();
    channel = null;
  };
}
