import { type RelaySocket, acknowledge } from './channel.ts';
import type { CatchUp } from './catchUp.ts';
import type { Deliveries } from './deliveries.ts';
import { eventIdOf, parseEvent } from './events.ts';

export interface LiveOptions {
  /** Whether this relay holds the lease now. */
  leading(): boolean;
  catchUp: CatchUp;
  deliveries: Deliveries;
  /** A live event acknowledged without pushing it, while standing by. */
  leftToHolder(id: number | undefined): void;
  membersGone(memberIds: string[]): void;
  pairBlocked(memberIds: [string, string]): void;
}

/**
 * What the server says as it happens. A friend event is pushed by the leader (held while it
 * catches up) and acknowledged at once by a standby: should it take over first, catch-up brings
 * the event. Deleted accounts and blocks stop the pushes they concern.
 */
export function liveEvents(o: LiveOptions) {
  const event = (raw: unknown, ack: unknown): void => {
    if (!o.leading()) {
      acknowledge(ack);
      o.leftToHolder(eventIdOf(parseEvent(raw)));
    } else if (o.catchUp.active) o.catchUp.hold(raw, ack);
    else
      void o.deliveries.handle(parseEvent(raw)).then((settled) => {
        if (settled) acknowledge(ack);
      });
  };
  return {
    event,
    listen(socket: RelaySocket): void {
      socket.on('relay:event', event);
      socket.on('relay:members-gone', (raw: unknown) => {
        const memberIds = o.deliveries.membersGone(raw);
        if (memberIds) o.membersGone(memberIds);
      });
      socket.on('relay:pair-blocked', (raw: unknown) => {
        const memberIds = o.deliveries.pairBlocked(raw);
        if (memberIds) o.pairBlocked(memberIds);
      });
    },
  };
}
