/** Friends and search (docs/decisions.md "Friend calls answer the status"). */
import type { z } from 'zod';
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

const friendAction = <const P extends EndpointPath, B extends z.ZodType>(path: P, body: B) =>
  endpoint(path, { body, answer: FriendStatusResponse, read: readFriendStatus });
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
  answer: FriendStatusResponse,
  read: readFriendStatus,
});
export const friendCounts = /* @__PURE__ */ endpoint(PATHS.friendCounts, {
  answer: FriendCounts,
});
export const friendsIncoming = /* @__PURE__ */ endpoint(PATHS.friendsIncoming, {
  answer: FriendListResponse,
  read: readFriendList,
});
export const friendsOutgoing = /* @__PURE__ */ endpoint(PATHS.friendsOutgoing, {
  answer: FriendListResponse,
  read: readFriendList,
});
/** The signed-in member's friends, or another member's with userId or username. */
export const friendsList = /* @__PURE__ */ endpoint(PATHS.friendsList, {
  query: FriendListQuery,
  answer: FriendListResponse,
  read: readFriendList,
});
export const search = /* @__PURE__ */ endpoint(PATHS.search, {
  query: SearchQuery,
  answer: SearchResponse,
  read: readSearch,
});
