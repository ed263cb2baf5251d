import { useEffect } from 'react';
import { FRIEND_EVENTS } from '../contracts/realtime.ts';
import { useSession } from '../features/auth/store.ts';
import {
  connectFriendsAcrossTabs,
  receiveFriendEvent,
  scheduleCounts,
} from '../features/friends/store.ts';
import { connectNotifications } from '../features/notifications/store.ts';
import { onBackOnline } from '../features/offline/store.ts';
import { onUnauthorized, refetchShown, whileShown } from '../lib/serverState.ts';
import {
  connectSocket,
  disconnectSocket,
  onSocketConnect,
  onSocketEnded,
  onSocketEvent,
  reconnectSocket,
} from '../lib/socket.ts';

let checking: Promise<void> | null = null;
/**
 * A call answered 401: the session may have ended, and the session check says whether it did
 * (docs/decisions.md "One reset"). Exported for the tests of the reset.
 */
export function checkSessionAfter401(): void {
  if (useSession.getState().status !== 'signedIn') return;
  checking ??= useSession
    .getState()
    .load()
    .finally(() => {
      checking = null;
    });
}

/**
 * With a member present the socket is connected and friend events flow into the store; without, it
 * is closed. What is on screen is read again at every (re)connect, once the rooms are joined, when
 * socket events keep it current (an event sent before the socket joined is never heard), and
 * everything shown when the connection comes back, which also connects the socket again
 * (docs/architecture.md "Client state"). Whatever the tab holds of a member goes with them through
 * src/lib/memberState.ts, not here.
 */
export function useRealtime() {
  const userId = useSession((state) => state.user?.id);
  const username = useSession((state) => state.user?.username ?? '');

  useEffect(() => {
    if (!userId) {
      disconnectSocket();
      return;
    }
    // A task after the commit that shows the page: the socket's connect, the subscriptions and the
    // counts call would otherwise lengthen the page's first commit into one long task on a phone.
    let stops: (() => void)[] = [];
    const start = setTimeout(() => {
      stops = connectMember(userId, username);
    });
    return () => {
      clearTimeout(start);
      for (const stop of stops) stop();
    };
  }, [userId, username]);

  // A call refused with 401 asks who is signed in; the answer may end the session here.
  useEffect(() => onUnauthorized(checkSessionAfter401), []);

  useEffect(() => () => disconnectSocket(), []);
}

/** Connects the socket for a member and listens; answers what stops the listening. */
function connectMember(userId: string, username: string): (() => void)[] {
  const unsubscribe = FRIEND_EVENTS.map((event) =>
    onSocketEvent(event, (payload) => receiveFriendEvent(event, payload, userId)),
  );
  unsubscribe.push(connectNotifications(userId));
  unsubscribe.push(connectFriendsAcrossTabs());
  // The counts are shown wherever a member is (the bell, their profile).
  unsubscribe.push(whileShown(scheduleCounts, { live: true }));
  // After the handlers that join rooms again: a read sent before a join could miss an event.
  let registering = true;
  unsubscribe.push(
    onSocketConnect(() => {
      if (!registering) setTimeout(() => refetchShown('connect'), 0);
    }),
  );
  registering = false;
  unsubscribe.push(
    onBackOnline(() => {
      reconnectSocket();
      refetchShown('online');
    }),
  );
  // The server ended the socket with its session: ask who is signed in; still this member
  // (the socket ended for another reason), connect again.
  unsubscribe.push(
    onSocketEnded(() => {
      void useSession
        .getState()
        .load()
        .then(() => {
          if (useSession.getState().user?.id === userId) reconnectSocket();
        });
    }),
  );
  connectSocket({ id: userId, username });
  scheduleCounts();
  return unsubscribe;
}
