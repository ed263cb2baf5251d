import type { NotificationPage } from '../../contracts/notifications.ts';
import { http, request } from '../../lib/http.ts';

export const notificationsApi = {
  page: (before?: string) =>
    http.get<NotificationPage>(
      `/api/notifications${before ? `?before=${encodeURIComponent(before)}` : ''}`,
    ),
  read: (ids: string[] | 'all') =>
    http.post<{ ok: boolean; unread: number }>(
      '/api/notifications/read',
      ids === 'all' ? { all: true } : { ids },
    ),
  remove: (id: string) => request<void>('DELETE', `/api/notifications/${encodeURIComponent(id)}`),
  removeAll: () => request<void>('DELETE', '/api/notifications'),
};
