/// <reference lib="webworker" />
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { enableNavigationPreload, serveAppShell, settleNavigationPreload } from './navigation.ts';
import { registerOutbox } from './outbox.ts';
import { registerPush } from './push.ts';
import { registerShare } from './share.ts';
import { NAVIGATION_DENYLIST, isSavedApiCall, isSavedMedia } from './routes.ts';
import { apiStrategy, mediaStrategy } from './strategies.ts';

declare const self: ServiceWorkerGlobalScope;

// Before the router's listener, so it sees every navigation.
self.addEventListener('fetch', settleNavigationPreload);
// The outbox's writes, before the router too (docs/decisions.md "The offline outbox").
registerOutbox(self);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

registerRoute(
  new NavigationRoute(
    ({ event, request }) =>
      serveAppShell({
        precached: () => matchPrecache('/index.html'),
        preloaded: async () =>
          (await (event as FetchEvent).preloadResponse) as Response | undefined,
        fetch: () => fetch(request),
      }),
    { denylist: NAVIGATION_DENYLIST },
  ),
);

registerRoute(({ url }) => isSavedApiCall(url, self.location.origin), apiStrategy());
registerRoute(({ url }) => isSavedMedia(url, self.location.origin), mediaStrategy());

self.addEventListener('activate', (event) => {
  // The first worker takes over the page that installed it, so it works offline from then on.
  event.waitUntil(Promise.all([enableNavigationPreload(self.registration), self.clients.claim()]));
});

// The page's update flow (workbox-window messageSkipWaiting) activates a waiting worker.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

registerPush(self);
registerShare(self);
