import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  FriendCounts,
  FriendListResponse,
  FriendStatusResponse,
  SearchResponse,
} from '../../../../src/contracts/friends.ts';
import {
  FriendListQuery,
  FriendStatusQuery,
  FRIEND_ACTIONS,
  FRIEND_BODIES,
  friendTarget,
  SearchQuery,
} from '../../../../src/contracts/friendsInput.ts';
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
    publish: (event, payload) => app.realtime.publishFriendEvent(event, payload),
    notifications: app.notificationEvents,
    mediaUrl: app.media.url,
  };

  for (const action of FRIEND_ACTIONS) {
    app.post(
      `/api/users/friends/${action}`,
      { schema: { body: FRIEND_BODIES[action], response: { 200: FriendStatusResponse } } },
      async (request) => ({
        status: await ACTIONS[action](
          deps,
          request.member.user,
          friendTarget(action, request.body),
        ),
      }),
    );
  }

  app.get(
    '/api/users/friends/status',
    { schema: { querystring: FriendStatusQuery, response: { 200: FriendStatusResponse } } },
    async (request) => ({
      status: await friends.getStatus(deps, request.member.user, request.query),
    }),
  );

  app.get(
    '/api/users/friends/counts',
    { schema: { response: { 200: FriendCounts } } },
    async (request) => friends.counts(deps, request.member.user),
  );

  app.get(
    '/api/users/friends/incoming',
    { schema: { response: { 200: FriendListResponse } } },
    async (request) => ({ results: await friends.incoming(deps, request.member.user) }),
  );

  app.get(
    '/api/users/friends/outgoing',
    { schema: { response: { 200: FriendListResponse } } },
    async (request) => ({ results: await friends.outgoing(deps, request.member.user) }),
  );

  /** The signed-in member's friends, or another member's with userId or username. */
  app.get(
    '/api/users/friends/list',
    { schema: { querystring: FriendListQuery, response: { 200: FriendListResponse } } },
    async (request) => {
      const { query } = request;
      const me = request.member.user;
      const owner =
        query.userId || query.username ? await friends.resolveOwner(deps, query, me.id) : me;
      return { results: await friends.friends(deps, owner.id, me.id) };
    },
  );

  app.get(
    '/api/users/search',
    { schema: { querystring: SearchQuery, response: { 200: SearchResponse } } },
    async (request) => {
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
    },
  );
  done();
};
