/** Requests of the friend and search calls: the server validates with them, the client sends them. */
import { z } from './zod.ts';
import { SEARCH_LIMIT } from './constants.ts';

const id = z.string().trim().max(100).optional();
const name = z.string().trim().max(100).optional();
const NAME_THE_MEMBER = 'Name the member by user id or username.';

/**
 * Every friend call names the other member as `toUserId` or `username` (docs/product.md "Friends":
 * "A call names the other member by id or username").
 */
export const FriendTargetBody = z
  .object({ toUserId: id, username: name })
  .refine((body) => Boolean(body.toUserId || body.username), { message: NAME_THE_MEMBER });
export type FriendTargetBody = z.input<typeof FriendTargetBody>;

export const FriendStatusQuery = z
  .object({ userId: id, username: name })
  .refine((query) => Boolean(query.userId || query.username), { message: NAME_THE_MEMBER });
export type FriendStatusQuery = z.input<typeof FriendStatusQuery>;

/** Whose friends: another member's by id or username, else the member asking. */
export const FriendListQuery = z.object({
  userId: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
});
export type FriendListQuery = z.input<typeof FriendListQuery>;

export const SearchQuery = z.object({
  q: z.string().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT).default(SEARCH_LIMIT),
});
export type SearchQuery = z.input<typeof SearchQuery>;
