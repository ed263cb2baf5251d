import type { FriendEvent, FriendEventPayload } from '../../../../src/contracts/realtime.ts';
import { liveEvents, userRoom } from '../../plugins/realtime.ts';

/** Friend events to members' tabs (docs/product.md "Realtime"). */
interface FriendEvents {
  /** To every tab of both members of the pair, on every server process. */
  toPair: (event: FriendEvent, payload: FriendEventPayload) => void;
  /** To one member's tabs only (the blocker's, after a block). */
  toMember: (userId: string, event: FriendEvent, payload: FriendEventPayload) => void;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Friend events; the account and blocks routes send theirs through it too. */
    friendEvents: FriendEvents;
  }
}

/** The friend events, sent through the realtime server to the members' private rooms. */
export const friendEventsPlugin = liveEvents(
  'friendEvents',
  (io) => ({
    toPair: (event, payload) =>
      io.to([userRoom(payload.fromUserId), userRoom(payload.toUserId)]).emit(event, payload),
    toMember: (userId, event, payload) => io.to(userRoom(userId)).emit(event, payload),
  }),
  { name: 'orbit-friend-events' },
);
