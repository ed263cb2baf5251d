import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import * as endpoints from '../../../../src/contracts/endpoints.ts';
import { FRIEND_ACTIONS, friendTarget } from '../../../../src/contracts/friendsInput.ts';
import { route } from '../../lib/route.ts';
import { searchMembers } from './search.ts';
import * as friends from './service.ts';

const ACTIONS = {
  request: friends.sendRequest,
  cancel: friends.cancelRequest,
  accept: friends.acceptRequest,
  decline: friends.declineRequest,
  unfriend: friends.unfriend,
} as const;

/** Friend calls and member search: member routes (docs/decisions.md "Friend calls answer the status"). */
export const friendRoutes: FastifyPluginCallbackZod = (app, _options, done) => {
  const deps: friends.FriendDeps = {
    db: app.db,
    publish: app.friendEvents.toPair,
    notifications: app.notificationEvents,
    mediaUrl: app.media.url,
  };

  for (const action of FRIEND_ACTIONS) {
    route(app, endpoints.FRIEND_ENDPOINTS[action], {}, async (request) => ({
      status: await ACTIONS[action](deps, request.member.user, friendTarget(action, request.body)),
    }));
  }

  route(app, endpoints.friendStatus, {}, async (request) => ({
    status: await friends.getStatus(deps, request.member.user, request.query),
  }));

  route(app, endpoints.friendCounts, {}, async (request) =>
    friends.counts(deps, request.member.user),
  );

  route(app, endpoints.friendsIncoming, {}, async (request) => ({
    results: await friends.incoming(deps, request.member.user),
  }));

  route(app, endpoints.friendsOutgoing, {}, async (request) => ({
    results: await friends.outgoing(deps, request.member.user),
  }));

  route(app, endpoints.friendsList, {}, async (request) => {
    const { query } = request;
    const me = request.member.user;
    const owner =
      query.userId || query.username ? await friends.resolveOwner(deps, query, me.id) : me;
    return { results: await friends.friends(deps, owner.id, me.id) };
  });

  route(app, endpoints.search, {}, async (request) => {
    const { q, limit } = request.query;
    return {
      users: await searchMembers(
        deps.db,
        app.dialect,
        request.member.user,
        q,
        limit,
        deps.mediaUrl,
      ),
    };
  });
  done();
};
