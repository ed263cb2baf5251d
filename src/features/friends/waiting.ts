/**
 * Answers to friend requests made offline, waiting in the outbox (docs/decisions.md "The offline
 * outbox"): accepting, declining or cancelling. The friends and notifications stores show them on
 * top of what the server (or its saved copy) says, and the rows mark them.
 */
import type { FriendStatus } from '../../contracts/friends.ts';
import { FRIEND_TARGET_FIELD } from '../../contracts/friendsInput.ts';
import type { EndpointPath } from '../../contracts/endpoints.paths.ts';
import { friendAccept, friendCancel, friendDecline } from '../../contracts/paths/friends.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { useWaiting, waitingCalls } from '../offline/waiting.ts';

/** The friend calls the outbox keeps. */
const ANSWERS = { accept: friendAccept, decline: friendDecline, cancel: friendCancel } as const;
export type FriendAnswer = keyof typeof ANSWERS;
const ANSWER_OF = new Map<EndpointPath, FriendAnswer>(
  Object.entries(ANSWERS).map(([action, entry]) => [entry, action as FriendAnswer]),
);
const ENTRIES = Object.values(ANSWERS);

/** The relation each answer leaves. */
export const STATUS_AFTER: Record<FriendAnswer, FriendStatus> = {
  accept: 'friends',
  decline: 'none',
  cancel: 'none',
};

type Body = Partial<Record<string, unknown>>;

const otherOf = (action: FriendAnswer, body: Body): string | undefined => {
  const id = body[FRIEND_TARGET_FIELD[action]];
  return typeof id === 'string' && id ? id : undefined;
};

/** The member's waiting answers, by the other member's id: the last one made to each. */
export function waitingAnswers(items: readonly OutboxItem[]): Map<string, FriendAnswer> {
  const answers = new Map<string, FriendAnswer>();
  for (const call of waitingCalls<Body>(items, ENTRIES)) {
    const action = ANSWER_OF.get(call.entry);
    const other = action && otherOf(action, call.body);
    if (action && other) answers.set(other, action);
  }
  return answers;
}

/** Whether an answer to a request between the member and `userId` waits to be sent. */
export const useAnswerWaiting = (userId: string | undefined): boolean =>
  useWaiting<Body>(ENTRIES, (call) => {
    const action = ANSWER_OF.get(call.entry);
    return Boolean(userId && action && otherOf(action, call.body) === userId);
  });
