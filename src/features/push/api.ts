import {
  type PushSubscriptionBody,
  type PushUnsubscribeBody,
  VapidPublicKeyResponse,
} from '../../contracts/pushSubscription.ts';
import { PATHS } from '../../contracts/endpoints.paths.ts';
import { http, parsed, request } from '../../lib/http.ts';

export const pushApi = {
  /** The relay's VAPID public key (base64url); 503 while the server has none. */
  publicKey: async () =>
    (await parsed(VapidPublicKeyResponse, http.get(PATHS.pushKey.path, { cache: 'no-store' })))
      .publicKey,
  save: (subscription: PushSubscriptionBody) => http.post(PATHS.pushSubscribe.path, subscription),
  remove: (endpoint: string) =>
    request<void>('DELETE', PATHS.pushSubscribe.path, {
      json: { endpoint } satisfies PushUnsubscribeBody,
    }),
};
