/** Friends and search (docs/decisions.md "Friend calls answer the status"). */
import type * as z from 'zod/v4/core';
import * as PATHS from '../paths/friends.ts';
import {
  FriendCounts,
  FriendListResponse,
  FriendStatusResponse,
  SearchResponse,
} from '../friends.ts';
import { FRIEND_BODIES, FriendListQuery, FriendStatusQuery, SearchQuery } from '../friendsInput.ts';
import { readFriendList, readFriendStatus, readSearch } from '../readers/friends.ts';
import { type EndpointPath, endpoint } from './entry.ts';

/** The pair's status, as every friend call answers it, read as any server spells it. */
const STATUS_ANSWER = { answer: FriendStatusResponse, read: readFriendStatus };
/** A list of friends or requests, read as any server spells it. */
const LIST_ANSWER = { answer: FriendListResponse, read: readFriendList };

const friendAction = <const P extends EndpointPath, B extends z.$ZodType>(path: P, body: B) =>
  endpoint(path, { body, ...STATUS_ANSWER });
const friendRequest = /* @__PURE__ */ friendAction(PATHS.friendRequest, FRIEND_BODIES.request);
const friendCancel = /* @__PURE__ */ friendAction(PATHS.friendCancel, FRIEND_BODIES.cancel);
const friendAccept = /* @__PURE__ */ friendAction(PATHS.friendAccept, FRIEND_BODIES.accept);
const friendDecline = /* @__PURE__ */ friendAction(PATHS.friendDecline, FRIEND_BODIES.decline);
const friendUnfriend = /* @__PURE__ */ friendAction(PATHS.friendUnfriend, FRIEND_BODIES.unfriend);
/** The entry of each friend call. */
export const FRIEND_ENDPOINTS = {
  request: friendRequest,
  cancel: friendCancel,
  accept: friendAccept,
  decline: friendDecline,
  unfriend: friendUnfriend,
} as const;
export const friendStatus = /* @__PURE__ */ endpoint(PATHS.friendStatus, {
  query: FriendStatusQuery,
  ...STATUS_ANSWER,
});
export const friendCounts = /* @__PURE__ */ endpoint(PATHS.friendCounts, {
  answer: FriendCounts,
});
export const friendsIncoming = /* @__PURE__ */ endpoint(PATHS.friendsIncoming, LIST_ANSWER);
export const friendsOutgoing = /* @__PURE__ */ endpoint(PATHS.friendsOutgoing, LIST_ANSWER);
/** The signed-in member's friends, or another member's with userId or username. */
export const friendsList = /* @__PURE__ */ endpoint(PATHS.friendsList, {
  query: FriendListQuery,
  ...LIST_ANSWER,
});
export const search = /* @__PURE__ */ endpoint(PATHS.search, {
  query: SearchQuery,
  answer: SearchResponse,
  read: readSearch,
});
