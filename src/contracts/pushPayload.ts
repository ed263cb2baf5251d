/**
 * The body of one push message (docs/product.md "Offline, install and push"): made by the server,
 * encrypted by push-relay, read by the service worker. Declared with the checks of records.ts, so
 * the worker reads it without a schema library; the relay's protocol (push.ts) embeds it.
 */
import { type Checked, integerIn, matching, nonEmptyText, oneOf, record, text } from './records.ts';

/** The kinds of friend event that become a push. */
const PUSH_KINDS = ['friend_request', 'friend_accepted'] as const;
export type PushKind = (typeof PUSH_KINDS)[number];

/** A path on Orbit's own origin: a push never sends the member to another site. */
const APP_PATH = /^\/(?![/\\])/;
export const isAppPath = matching(APP_PATH);

/** A notification id: a whole number that JSON carries exactly. */
export const isEventId = integerIn(0, Number.MAX_SAFE_INTEGER);

export const isPushPayload = record({
  /** The notification id on the server: increasing, used for the relay's catch-up. */
  id: isEventId,
  kind: oneOf(PUSH_KINDS),
  /** The friend request the event is about; the notification tag and the push topic. */
  requestId: nonEmptyText,
  actor: record({ id: text, username: nonEmptyText, profileImage: text }),
  /** Where a click takes the member, e.g. `/profile/alice`. */
  url: isAppPath,
  /** The recipient's unread notification count after this event, for the app badge. */
  unread: integerIn(0, Number.MAX_SAFE_INTEGER),
  createdAt: text,
});
export type PushPayload = Checked<typeof isPushPayload>;

export const PUSH_TITLE = 'Orbit';

/** Notification bodies (docs/product.md "Offline, install and push": `@alice sent you a friend request`). */
export function pushBody(payload: Pick<PushPayload, 'kind' | 'actor'>): string {
  return payload.kind === 'friend_request'
    ? `@${payload.actor.username} sent you a friend request`
    : `@${payload.actor.username} accepted your friend request`;
}

/** One notification per request: repeats of the same event replace it instead of stacking. */
export function pushTag(payload: Pick<PushPayload, 'requestId'>): string {
  return `orbit-friend-${payload.requestId}`;
}

/** What the service worker posts to an open window after a notification click: go to `url`. */
export const PUSH_NAVIGATE = 'navigate';

export const isPushNavigateMessage = record({
  type: oneOf([PUSH_NAVIGATE] as const),
  url: isAppPath,
});
export type PushNavigateMessage = Checked<typeof isPushNavigateMessage>;
