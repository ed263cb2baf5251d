/** Notifications and push (the push key is open to the signed out). */
import type { EndpointPath } from '../endpoints.paths.ts';

export const pushKey = {
  method: 'GET',
  path: '/api/push/vapid-public-key',
  neverKept: true,
} as const satisfies EndpointPath;
export const notifications = {
  method: 'GET',
  path: '/api/notifications',
  offline: true,
} as const satisfies EndpointPath;
export const notificationsRead = {
  method: 'POST',
  path: '/api/notifications/read',
} as const satisfies EndpointPath;
export const notificationDelete = {
  method: 'DELETE',
  path: '/api/notifications/:id',
} as const satisfies EndpointPath;
export const notificationsClear = {
  method: 'DELETE',
  path: '/api/notifications',
} as const satisfies EndpointPath;
export const pushSubscribe = {
  method: 'POST',
  path: '/api/push/subscriptions',
} as const satisfies EndpointPath;
export const pushUnsubscribe = {
  method: 'DELETE',
  path: '/api/push/subscriptions',
} as const satisfies EndpointPath;
