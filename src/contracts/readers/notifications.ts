/** Notifications as the app reads them (docs/product.md "Notification state"). */
import { Notification, NotificationPage } from '../notifications.ts';
import { idOf, isObject } from './common.ts';

/** `source` with its id under `id`, whether it came as `id` or `_id`. */
function namedById(source: unknown): unknown {
  if (!isObject(source)) return source;
  const { _id, ...rest } = source;
  const id = idOf(source);
  return id ? { ...rest, id } : rest;
}

/** One notification, it and its actor named by `id` or `_id`; anything else as the contract says. */
export function readNotification(raw: unknown): Notification {
  const named = namedById(raw);
  return Notification.parse(
    isObject(named) && isObject(named.actor) ? { ...named, actor: namedById(named.actor) } : named,
  );
}

/** A page of notifications, each read by readNotification. */
export function readNotificationPage(body: unknown): NotificationPage {
  const page = isObject(body) ? body : {};
  return NotificationPage.parse({
    ...page,
    notifications: Array.isArray(page.notifications)
      ? page.notifications.map(readNotification)
      : page.notifications,
  });
}
