import {
  pushKey,
  pushSubscribe,
  pushUnsubscribe,
} from '../../contracts/endpoints/notifications.ts';
import type { PushSubscriptionBody } from '../../contracts/pushSubscription.ts';
import { api } from '../../lib/api.ts';

export const pushApi = {
  /** The relay's VAPID public key (base64url); 503 while the server has none. */
  publicKey: async () => (await api(pushKey, { cache: 'no-store' })).publicKey,
  save: (subscription: PushSubscriptionBody) => api(pushSubscribe, { body: subscription }),
  remove: (endpoint: string) => api(pushUnsubscribe, { body: { endpoint } }),
};
