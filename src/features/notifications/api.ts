import {
  notificationDelete,
  notifications,
  notificationsClear,
  notificationsRead,
} from '../../contracts/endpoints/notifications.ts';
import { api } from '../../lib/api.ts';

export const notificationsApi = {
  page: (before?: string) => api(notifications, { query: { before } }),
  read: (ids: string[] | 'all') =>
    api(notificationsRead, { body: ids === 'all' ? { all: true } : { ids } }),
  remove: (id: string) => api(notificationDelete, { params: { id } }),
  removeAll: () => api(notificationsClear),
};
