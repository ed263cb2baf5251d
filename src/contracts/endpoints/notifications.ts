/** Notifications and push. */
import * as PATHS from '../paths/notifications.ts';
import {
  NotificationIdParams,
  NotificationPage,
  NotificationPageQuery,
  NotificationReadBody,
  NotificationReadResponse,
} from '../notifications.ts';
import {
  PushSubscriptionBody,
  PushUnsubscribeBody,
  VapidPublicKeyResponse,
} from '../pushSubscription.ts';
import { readNotificationPage } from '../readers/notifications.ts';
import { ACKNOWLEDGED, endpoint } from './entry.ts';

export const pushKey = /* @__PURE__ */ endpoint(PATHS.pushKey, {
  answer: VapidPublicKeyResponse,
});

export const notifications = /* @__PURE__ */ endpoint(PATHS.notifications, {
  query: NotificationPageQuery,
  answer: NotificationPage,
  read: readNotificationPage,
});
export const notificationsRead = /* @__PURE__ */ endpoint(PATHS.notificationsRead, {
  body: NotificationReadBody,
  answer: NotificationReadResponse,
});
export const notificationDelete = /* @__PURE__ */ endpoint(PATHS.notificationDelete, {
  params: NotificationIdParams,
  answer: 'none',
});
export const notificationsClear = /* @__PURE__ */ endpoint(PATHS.notificationsClear, {
  answer: 'none',
});
export const pushSubscribe = /* @__PURE__ */ endpoint(PATHS.pushSubscribe, {
  body: PushSubscriptionBody,
  ...ACKNOWLEDGED,
  status: [200, 201],
});
export const pushUnsubscribe = /* @__PURE__ */ endpoint(PATHS.pushUnsubscribe, {
  body: PushUnsubscribeBody,
  answer: 'none',
});
