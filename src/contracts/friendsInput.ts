/** Request bodies and queries of the friend and search calls, parsed by the server. */
import { z } from 'zod';
import { SEARCH_LIMIT } from './constants.ts';

const id = z.string().trim().max(100).optional();
const name = z.string().trim().max(100).optional();

/** A friend call names the other member by id or username (docs/product.md "Friends"). */
export const FriendTargetBody = z
  .object({ toUserId: id, fromUserId: id, userId: id, username: name })
  .refine((body) => Boolean(body.toUserId || body.fromUserId || body.userId || body.username), {
    message: 'Name the member by user id or username.',
  });
export type FriendTargetBody = z.input<typeof FriendTargetBody>;

export const FriendStatusQuery = z
  .object({ userId: id, username: name })
  .refine((query) => Boolean(query.userId || query.username), {
    message: 'Name the member by user id or username.',
  });

export const SearchQuery = z.object({
  q: z.string().max(100).default(''),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT).default(SEARCH_LIMIT),
});
