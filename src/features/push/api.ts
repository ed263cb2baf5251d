import {
  PUSH_API,
  type PushSubscriptionBody,
  type PushUnsubscribeBody,
  VapidPublicKeyResponse,
} from '../../contracts/pushSubscription.ts';
import { http, parsed, request } from '../../lib/http.ts';

export const pushApi = {
  /** The relay's VAPID public key (base64url); 503 while the server has none. */
  publicKey: async () =>
    (await parsed(VapidPublicKeyResponse, http.get(PUSH_API.vapidPublicKey, { cache: 'no-store' })))
      .publicKey,
  save: (subscription: PushSubscriptionBody) => http.post(PUSH_API.subscriptions, subscription),
  remove: (endpoint: string) =>
    request<void>('DELETE', PUSH_API.subscriptions, {
      json: { endpoint } satisfies PushUnsubscribeBody,
    }),
};
