import {
  NotificationPage,
  type NotificationReadBody,
  NotificationReadResponse,
} from '../../contracts/notifications.ts';
import { http, parsed, request } from '../../lib/http.ts';

export const notificationsApi = {
  page: (before?: string) =>
    parsed(
      NotificationPage,
      http.get(`/api/notifications${before ? `?before=${encodeURIComponent(before)}` : ''}`),
    ),
  read: (ids: string[] | 'all') =>
    parsed(
      NotificationReadResponse,
      http.post(
        '/api/notifications/read',
        (ids === 'all' ? { all: true } : { ids }) satisfies NotificationReadBody,
      ),
    ),
  remove: (id: string) => request<void>('DELETE', `/api/notifications/${encodeURIComponent(id)}`),
  removeAll: () => request<void>('DELETE', '/api/notifications'),
};
