import { useEffect } from 'react';
import { FRIEND_EVENTS } from '../contracts/realtime.ts';
import { useSession } from '../features/auth/store.ts';
import {
  connectFriendsAcrossTabs,
  receiveFriendEvent,
  scheduleCounts,
  useFriends,
} from '../features/friends/store.ts';
import { connectNotifications, useNotifications } from '../features/notifications/store.ts';
import { onBackOnline } from '../features/offline/store.ts';
import {
  connectSocket,
  disconnectSocket,
  onSocketEnded,
  onSocketEvent,
  reconnectSocket,
} from '../lib/socket.ts';

/**
 * With a member present the socket is connected and friend events flow into the store; without, it
 * is closed. Back online or back from the back/forward cache, it connects again and the friend
 * counts are fetched afresh.
 */
export function useRealtime() {
  const userId = useSession((state) => state.user?.id);
  const username = useSession((state) => state.user?.username ?? '');

  useEffect(() => connectFriendsAcrossTabs(), []);

  useEffect(() => {
    if (!userId) {
      disconnectSocket();
      useFriends.getState().reset();
      useNotifications.getState().reset();
      return;
    }
    const unsubscribe = FRIEND_EVENTS.map((event) =>
      onSocketEvent(event, (payload) => receiveFriendEvent(event, payload, userId)),
    );
    unsubscribe.push(connectNotifications(userId));
    unsubscribe.push(
      onBackOnline(() => {
        reconnectSocket();
        scheduleCounts();
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
    // Shown again from the back/forward cache: the socket opens again (src/lib/socket.ts) and
    // what changed meanwhile is fetched, as after a time offline.
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) scheduleCounts();
    };
    window.addEventListener('pageshow', restored);
    unsubscribe.push(() => window.removeEventListener('pageshow', restored));
    connectSocket({ id: userId, username });
    scheduleCounts();
    return () => {
      for (const stop of unsubscribe) stop();
      // Signed out: the shell goes with the session, so the branch above never runs. The stores
      // forget the member here, or a load still under way would save their friend requests again
      // after the logout wiped them.
      if (useSession.getState().user?.id !== userId) {
        useFriends.getState().reset();
        useNotifications.getState().reset();
      }
    };
  }, [userId, username]);

  useEffect(() => () => disconnectSocket(), []);
}
