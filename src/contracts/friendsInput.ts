/** Requests of the friend and search calls: the server validates with them, the client sends them. */
import { z } from './zod.ts';
import { SEARCH_LIMIT } from './constants.ts';

const id = z.optional(z.string().check(z.trim(), z.maxLength(100)));
const name = z.optional(z.string().check(z.trim(), z.maxLength(100)));
const NAME_THE_MEMBER = 'Name the member by user id or username.';

/** The friend calls: POST /api/users/friends/{action}. */
export const FRIEND_ACTIONS = ['request', 'cancel', 'accept', 'decline', 'unfriend'] as const;
export type FriendAction = (typeof FRIEND_ACTIONS)[number];

/**
 * The field each friend call names the other member's id in (docs/product.md "Friends": "A call
 * names the other member by id or username"); `username` works for every call.
 */
export const FRIEND_TARGET_FIELD = {
  request: 'toUserId',
  cancel: 'toUserId',
  accept: 'fromUserId',
  decline: 'fromUserId',
  unfriend: 'userId',
} as const satisfies Record<FriendAction, string>;
type TargetField = (typeof FRIEND_TARGET_FIELD)[FriendAction];

function targetBody<F extends TargetField>(field: F) {
  const shape = { [field]: id, username: name } as Record<F, typeof id> & {
    username: typeof name;
  };
  return z.object(shape).check(
    z.refine(
      (body) => {
        const named = body as Partial<Record<string, string>>;
        return Boolean(named[field] || named.username);
      },
      { message: NAME_THE_MEMBER },
    ),
  );
}

/** A friend call's body: the other member by the call's id field, or by username. */
export const FRIEND_BODIES = {
  request: targetBody(FRIEND_TARGET_FIELD.request),
  cancel: targetBody(FRIEND_TARGET_FIELD.cancel),
  accept: targetBody(FRIEND_TARGET_FIELD.accept),
  decline: targetBody(FRIEND_TARGET_FIELD.decline),
  unfriend: targetBody(FRIEND_TARGET_FIELD.unfriend),
};
export type FriendBody<A extends FriendAction> = z.input<(typeof FRIEND_BODIES)[A]>;

/** The other member as a friend call's body names them. */
export function friendTarget(
  action: FriendAction,
  body: Partial<Record<TargetField | 'username', string | undefined>>,
): { userId: string | undefined; username: string | undefined } {
  return { userId: body[FRIEND_TARGET_FIELD[action]], username: body.username };
}

export const FriendStatusQuery = z
  .object({ userId: id, username: name })
  .check(
    z.refine((query) => Boolean(query.userId || query.username), { message: NAME_THE_MEMBER }),
  );
export type FriendStatusQuery = z.input<typeof FriendStatusQuery>;

/** Whose friends: another member's by id or username, else the member asking. */
export const FriendListQuery = z.object({
  userId: z.optional(z.string().check(z.maxLength(100))),
  username: z.optional(z.string().check(z.maxLength(100))),
});
export type FriendListQuery = z.input<typeof FriendListQuery>;

export const SearchQuery = z.object({
  q: z._default(z.string().check(z.maxLength(100)), ''),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(SEARCH_LIMIT)), SEARCH_LIMIT),
});
export type SearchQuery = z.input<typeof SearchQuery>;
