/**
 * The member's notifications and friend requests (docs/product.md "Notification state"): the
 * server's first page, the requests synthesised from incoming ones, and the Requests lists. Events
 * patch them; a friend request, whose event names only the pair, is read (docs/architecture.md
 * "Client state").
 */
import { create } from 'zustand';
import { NOTIFICATION_REFRESH_THROTTLE_MS } from '../../lib/constants.ts';
import type { FriendListItem } from '../../contracts/friends.ts';
import type {
  Notification,
  NotificationPage,
  NotificationsChanged,
} from '../../contracts/notifications.ts';
import {
  FRIEND_EVENTS,
  type FriendEvent,
  type FriendEventPayload,
} from '../../contracts/realtime.ts';
import { deleteFriendRequests, readFriendRequests, writeFriendRequests } from './savedRequests.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import {
  type PagedList,
  createPager,
  createServerState,
  whileShown,
} from '../../lib/serverState.ts';
import { onSocketEvent } from '../../lib/socket.ts';
import { type FriendAction, friendsApi } from '../friends/api.ts';
import { otherMember, useFriends } from '../friends/store.ts';
import { waitingAnswers } from '../friends/waiting.ts';
import { onWaitingItems, waitingItems } from '../offline/waiting.ts';
import { notificationsApi } from './api.ts';
import {
  extraSynthesised,
  isSynthesised,
  loadErrorMessage,
  mergeCached,
  mergeNotifications,
  synthesise,
} from './logic.ts';

type ListStatus = 'idle' | 'loading' | 'ready' | 'error';

interface NotificationsState {
  userId: string | null;
  /** The server's notifications (its first page) and its total unread count. */
  server: PagedList<Notification>;
  serverUnread: number;
  /** Friend-request notifications synthesised from incoming requests (docs/product.md "Notification state"). */
  synthesised: Notification[];
  /** Request ids whose synthesised notification the member cleared. */
  dismissed: string[];
  /** The merged, de-duplicated, newest-first list and its unread count. */
  items: Notification[];
  unread: number;
  loaded: boolean;
  incoming: FriendListItem[];
  outgoing: FriendListItem[];
  requestsStatus: ListStatus;
  requestsError: string;

  start: (userId: string) => void;
  reset: () => void;
  /** Throttled to once per 1.2 s (docs/product.md "Notification state"). */
  refresh: () => void;
  refreshRequests: () => Promise<void>;
  markRead: (id: string) => Promise<void>;
  markAllRead: () => Promise<void>;
  clear: (id: string) => Promise<void>;
  clearAll: () => Promise<void>;
  /** Accept, decline or cancel from a notification or a request row (the actions offered there). */
  answer: (action: FriendAction, userId: string, username: string) => Promise<void>;
  receiveNew: (notification: Notification) => void;
  receiveChanged: (change: NotificationsChanged) => void;
  /** A friend event: what it ended leaves the lists; a new request is read. */
  receiveFriendEvent: (event: FriendEvent, payload: FriendEventPayload) => void;
}

type Core = Pick<NotificationsState, 'server' | 'serverUnread' | 'synthesised' | 'dismissed'>;

function derive(core: Core): Pick<NotificationsState, 'items' | 'unread'> {
  const visible = core.synthesised.filter((item) => !core.dismissed.includes(item.requestId ?? ''));
  const extra = extraSynthesised(core.server.items, visible);
  return {
    items: mergeNotifications(core.server.items, visible),
    unread: core.serverUnread + extra.filter((item) => !item.read).length,
  };
}

type Requests = Pick<NotificationsState, 'incoming' | 'outgoing' | 'synthesised'>;

/**
 * The lists of requests without those the member answered offline, while the answers wait in the
 * outbox (docs/decisions.md "The offline outbox"): what the server or its saved copy lists is
 * shown as answered. Only the lists given and changed are in the result.
 */
function withoutAnswered(lists: Partial<Requests>): Partial<Requests> {
  const answers = waitingAnswers(waitingItems());
  if (answers.size === 0) return lists;
  const received = (userId: string | undefined) => {
    const answer = userId && answers.get(userId);
    return answer === 'accept' || answer === 'decline';
  };
  const { incoming, outgoing, synthesised } = lists;
  return {
    ...lists,
    ...(incoming ? { incoming: kept(incoming, (item) => !received(item.fromUserId)) } : {}),
    ...(outgoing
      ? { outgoing: kept(outgoing, (item) => answers.get(item.toUserId) !== 'cancel') }
      : {}),
    ...(synthesised ? { synthesised: kept(synthesised, (item) => !received(item.actor?.id)) } : {}),
  };
}

/** `list` without what `keep` refuses; the same array when it refuses nothing. */
function kept<T>(list: T[], keep: (item: T) => boolean): T[] {
  const left = list.filter(keep);
  return left.length === list.length ? list : left;
}

const NONE: PagedList<Notification> = { status: 'loading', items: [] };

const EMPTY = {
  userId: null,
  server: NONE,
  serverUnread: 0,
  synthesised: [],
  dismissed: [],
  items: [],
  unread: 0,
  loaded: false,
  incoming: [],
  outgoing: [],
  requestsStatus: 'idle' as ListStatus,
  requestsError: '',
};

/** The refresh throttle (docs/product.md "Notification state"); reset() cancels its waiting run. */
const calls = createServerState();
/** Current until the store resets: an answer for the member who left is dropped. */
const untilReset = () => calls.current('member');

export const useNotifications = create<NotificationsState>()((set, get) => {
  /** Sets core fields and recomputes the merged list. */
  const update = (core: Partial<Core> & Partial<NotificationsState>) =>
    set((state) => {
      const change = { ...core, ...withoutAnswered(core) };
      const next = { ...state, ...change };
      return { ...change, ...derive(next) };
    });

  /** What a failed notification call leaves: the server is asked again for the truth. */
  const reask = () => get().refresh();

  const persist = () => {
    const { userId, synthesised, dismissed } = get();
    if (userId) void writeFriendRequests({ userId, items: synthesised, dismissed });
  };

  const refresher = calls.throttle(() => void load(), NOTIFICATION_REFRESH_THROTTLE_MS);

  /** The server's notifications, as a paged list of which the first page is read. */
  const pages = createPager<Notification, NotificationPage & { items: Notification[] }>(calls, {
    read: () => get().server,
    write: (_key, server, page) =>
      update({ server, ...(page ? { serverUnread: page.unread, loaded: true } : {}) }),
    fetch: async (_key, cursor) => {
      const page = await notificationsApi.page(cursor ?? undefined);
      return { ...page, items: page.notifications };
    },
    idOf: (item) => item.id,
    keep: true,
  });

  async function load() {
    const userId = get().userId;
    if (!userId) return;
    const ticket = untilReset();
    const [incoming, cached] = await Promise.all([
      friendsApi.incoming().catch(() => null),
      readFriendRequests(userId),
      pages.first('all'),
    ]);
    if (!ticket.current || get().userId !== userId) return;
    const fresh = incoming ? incoming.map(synthesise) : null;
    const synthesised = fresh
      ? mergeCached(cached?.items ?? get().synthesised, fresh)
      : (cached?.items ?? get().synthesised);
    // Dismissals only matter while the request is still pending.
    const pending = new Set(synthesised.map((item) => item.requestId));
    const dismissed = [...new Set([...(cached?.dismissed ?? []), ...get().dismissed])].filter(
      (id) => pending.has(id),
    );
    update({
      synthesised,
      dismissed,
      loaded: true,
      ...(incoming && get().requestsStatus !== 'loading' ? { incoming } : {}),
    });
    persist();
  }

  /** The server's items changed here (read, cleared): the list keeps its paging. */
  const setServer = (items: Notification[]) => ({ server: { ...get().server, items } });

  return {
    ...EMPTY,

    start(userId) {
      if (get().userId === userId) return;
      calls.reset();
      set({ ...EMPTY, userId });
      refresher.call();
    },

    reset() {
      // The member's cache is wiped at logout (docs/product.md "Offline, install and push").
      const userId = get().userId;
      if (userId) void deleteFriendRequests(userId);
      calls.reset();
      set(EMPTY);
    },

    refresh() {
      if (get().userId) refresher.call();
    },

    async refreshRequests() {
      const ticket = calls.claim('requests');
      set({ requestsStatus: 'loading', requestsError: '' });
      try {
        const [incoming, outgoing] = await Promise.all([
          friendsApi.incoming(),
          friendsApi.outgoing(),
        ]);
        if (ticket.current)
          set({ ...withoutAnswered({ incoming, outgoing }), requestsStatus: 'ready' });
      } catch (error) {
        if (ticket.current)
          set({ requestsStatus: 'error', requestsError: loadErrorMessage(error) });
      }
    },

    async markRead(id) {
      const target = get().items.find((item) => item.id === id);
      if (!target || target.read) return;
      if (isSynthesised(target)) {
        update({
          synthesised: get().synthesised.map((item) =>
            item.id === id ? { ...item, read: true } : item,
          ),
        });
        persist();
        return;
      }
      const outcome = await calls.optimistic(
        () => {
          update({
            ...setServer(
              get().server.items.map((item) => (item.id === id ? { ...item, read: true } : item)),
            ),
            serverUnread: Math.max(0, get().serverUnread - 1),
          });
          return reask;
        },
        () => notificationsApi.read([id]),
      );
      if (outcome.ok) update({ serverUnread: outcome.value.unread });
    },

    async markAllRead() {
      const outcome = await calls.optimistic(
        () => {
          update({
            ...setServer(get().server.items.map((item) => ({ ...item, read: true }))),
            serverUnread: 0,
            synthesised: get().synthesised.map((item) => ({ ...item, read: true })),
          });
          persist();
          return reask;
        },
        () => notificationsApi.read('all'),
      );
      if (outcome.ok) update({ serverUnread: outcome.value.unread });
    },

    async clear(id) {
      const target = get().items.find((item) => item.id === id);
      if (!target) return;
      const requestId = target.type === 'friend_request' ? target.requestId : null;
      update({
        ...setServer(get().server.items.filter((item) => item.id !== id)),
        serverUnread:
          !isSynthesised(target) && !target.read
            ? Math.max(0, get().serverUnread - 1)
            : get().serverUnread,
        // A cleared friend request leaves the cache too (docs/product.md "Notification state") and stays cleared.
        synthesised: requestId
          ? get().synthesised.filter((item) => item.requestId !== requestId)
          : get().synthesised,
        dismissed: requestId ? [...new Set([...get().dismissed, requestId])] : get().dismissed,
      });
      persist();
      if (isSynthesised(target)) return;
      await calls.optimistic(
        () => reask,
        () => notificationsApi.remove(id),
      );
    },

    async clearAll() {
      const dismissed = [
        ...new Set([
          ...get().dismissed,
          ...get()
            .synthesised.map((item) => item.requestId ?? '')
            .filter(Boolean),
        ]),
      ];
      update({ ...setServer([]), serverUnread: 0, synthesised: [], dismissed });
      useFriends.setState((state) => ({ counts: { ...state.counts, incoming: 0 } }));
      const userId = get().userId;
      if (userId) {
        await deleteFriendRequests(userId);
        persist();
      }
      await calls.optimistic(
        () => reask,
        () => notificationsApi.removeAll(),
      );
    },

    async answer(action, userId, username) {
      const { incoming, outgoing } = get();
      const synthesised = get().synthesised.filter(
        (item) => item.actor?.id !== userId || action === 'cancel',
      );
      const server = get().server.items.map((item) =>
        item.type === 'friend_request' && item.actor?.id === userId && action !== 'cancel'
          ? { ...item, read: true }
          : item,
      );
      update({ synthesised, ...setServer(server) });
      persist();
      await calls.optimistic(
        () => {
          if (action === 'cancel')
            set({ outgoing: outgoing.filter((item) => item.toUserId !== userId) });
          else set({ incoming: incoming.filter((item) => item.fromUserId !== userId) });
          return () => set({ incoming, outgoing });
        },
        async () => {
          if ((await useFriends.getState().act(action, userId, username)) === 'failed')
            throw new Error(`Could not ${action}`);
        },
      );
      get().refresh();
    },

    receiveNew(notification) {
      // Idempotent: a notification already held is not counted twice.
      const held = get().server.items.some((item) => item.id === notification.id);
      const server = [
        notification,
        ...get().server.items.filter((item) => item.id !== notification.id),
      ];
      update({
        ...setServer(server),
        serverUnread: get().serverUnread + (notification.read || held ? 0 : 1),
      });
    },

    receiveChanged(change) {
      let { synthesised, dismissed } = get();
      let server = get().server.items;
      const { read, removed } = change;
      if (read === 'all') {
        server = server.map((item) => ({ ...item, read: true }));
        synthesised = synthesised.map((item) => ({ ...item, read: true }));
      } else if (read) {
        server = server.map((item) => (read.includes(item.id) ? { ...item, read: true } : item));
      }
      if (removed === 'all') {
        server = [];
        dismissed = [
          ...new Set([
            ...dismissed,
            ...synthesised.map((item) => item.requestId ?? '').filter(Boolean),
          ]),
        ];
        synthesised = [];
      } else if (removed) {
        server = server.filter((item) => !removed.includes(item.id));
      }
      update({ ...setServer(server), synthesised, dismissed, serverUnread: change.unread });
      persist();
    },

    receiveFriendEvent(event, payload) {
      const userId = get().userId;
      const other = userId ? otherMember(payload, userId) : null;
      if (!other) return;
      if (event === 'friend:request:created') {
        // The event names the pair only: the sender's name and picture come with a read.
        get().refresh();
        if (get().requestsStatus !== 'idle') void get().refreshRequests();
        return;
      }
      // The request between the two is over, whichever way: it leaves every list.
      const { incoming, outgoing, synthesised } = get();
      update({
        incoming: incoming.filter((item) => item.fromUserId !== other),
        outgoing: outgoing.filter((item) => item.toUserId !== other),
        synthesised: synthesised.filter((item) => item.actor?.id !== other),
      });
      persist();
    },
  };
});

joinMemberState('notifications', { reset: () => useNotifications.getState().reset() });

// A request answered offline leaves the lists as soon as the outbox lists the answer.
onWaitingItems(() => {
  const state = useNotifications.getState();
  const { incoming, outgoing, synthesised } = state;
  const lists = withoutAnswered({ incoming, outgoing, synthesised });
  if (
    lists.incoming !== incoming ||
    lists.outgoing !== outgoing ||
    lists.synthesised !== synthesised
  )
    useNotifications.setState({ ...lists, ...derive({ ...state, ...lists }) });
});

/**
 * Live updates for the signed-in member: notification and friend events patch the store, and the
 * lists, always on screen in the bell, are read again at every (re)connect.
 */
export function connectNotifications(userId: string): () => void {
  const store = useNotifications.getState();
  store.start(userId);
  const refreshAll = () => {
    const current = useNotifications.getState();
    current.refresh();
    if (current.requestsStatus !== 'idle') void current.refreshRequests();
  };
  const stops = [
    onSocketEvent('notification:new', (notification) =>
      useNotifications.getState().receiveNew(notification),
    ),
    onSocketEvent('notification:changed', (change) =>
      useNotifications.getState().receiveChanged(change),
    ),
    ...FRIEND_EVENTS.map((event) =>
      onSocketEvent(event, (payload) =>
        useNotifications.getState().receiveFriendEvent(event, payload),
      ),
    ),
    whileShown(refreshAll, { live: true }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
