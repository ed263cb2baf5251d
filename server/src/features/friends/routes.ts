import type { FastifyInstance } from 'fastify';
import {
  FriendStatusQuery,
  FriendTargetBody,
  SearchQuery,
} from '../../../../src/contracts/friendsInput.ts';
import { z } from 'zod';
import { searchMembers } from './search.ts';
import * as friends from './service.ts';

type TargetBody = z.output<typeof FriendTargetBody>;
const targetOf = (body: TargetBody): friends.Target => ({
  userId: body.toUserId || body.fromUserId || body.userId,
  username: body.username,
});

const ListQuery = z.object({
  userId: z.string().max(100).optional(),
  username: z.string().max(100).optional(),
});

export function friendRoutes(app: FastifyInstance, { deps }: { deps: friends.FriendDeps }) {
  const action = (path: string, run: typeof friends.sendRequest) =>
    app.post(`/api/users/friends/${path}`, async (request) => {
      const { user } = await request.member();
      const body = FriendTargetBody.parse(request.body ?? {});
      return { status: await run(deps, user, targetOf(body)) };
    });
  action('request', friends.sendRequest);
  action('cancel', friends.cancelRequest);
  action('accept', friends.acceptRequest);
  action('decline', friends.declineRequest);
  action('unfriend', friends.unfriend);

  app.get('/api/users/friends/status', async (request) => {
    const { user } = await request.member();
    const query = FriendStatusQuery.parse(request.query);
    return { status: await friends.getStatus(deps, user, query) };
  });

  app.get('/api/users/friends/counts', async (request) => {
    const { user } = await request.member();
    return friends.counts(deps, user);
  });

  app.get('/api/users/friends/incoming', async (request) => {
    const { user } = await request.member();
    return { results: await friends.incoming(deps, user) };
  });

  app.get('/api/users/friends/outgoing', async (request) => {
    const { user } = await request.member();
    return { results: await friends.outgoing(deps, user) };
  });

  /** The signed-in member's friends, or another member's with userId or username. */
  app.get('/api/users/friends/list', async (request) => {
    const { user } = await request.member();
    const query = ListQuery.parse(request.query);
    const owner = query.userId || query.username ? await friends.resolveOwner(deps, query) : user;
    return { results: await friends.friends(deps, owner.id) };
  });

  app.get('/api/users/search', async (request) => {
    const { user } = await request.member();
    const { q, limit } = SearchQuery.parse(request.query);
    return { users: await searchMembers(deps.db, app.dialect, user, q, limit, deps.mediaUrl) };
  });
}
