/** Friends and search. */
import type { EndpointPath } from '../endpoints.paths.ts';

export const friendRequest = {
  method: 'POST',
  path: '/api/users/friends/request',
} as const satisfies EndpointPath;
export const friendCancel = {
  method: 'POST',
  path: '/api/users/friends/cancel',
  outbox: true,
} as const satisfies EndpointPath;
export const friendAccept = {
  method: 'POST',
  path: '/api/users/friends/accept',
  outbox: true,
} as const satisfies EndpointPath;
export const friendDecline = {
  method: 'POST',
  path: '/api/users/friends/decline',
  outbox: true,
} as const satisfies EndpointPath;
export const friendUnfriend = {
  method: 'POST',
  path: '/api/users/friends/unfriend',
} as const satisfies EndpointPath;
export const friendStatus = {
  method: 'GET',
  path: '/api/users/friends/status',
  offline: true,
} as const satisfies EndpointPath;
export const friendCounts = {
  method: 'GET',
  path: '/api/users/friends/counts',
  offline: true,
} as const satisfies EndpointPath;
export const friendsIncoming = {
  method: 'GET',
  path: '/api/users/friends/incoming',
  offline: true,
} as const satisfies EndpointPath;
export const friendsOutgoing = {
  method: 'GET',
  path: '/api/users/friends/outgoing',
  offline: true,
} as const satisfies EndpointPath;
export const friendsList = {
  method: 'GET',
  path: '/api/users/friends/list',
  offline: true,
} as const satisfies EndpointPath;
export const search = { method: 'GET', path: '/api/users/search' } as const satisfies EndpointPath;
