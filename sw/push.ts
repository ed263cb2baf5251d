/// <reference lib="webworker" />

/** Push, notification click and action handlers of the service worker. */
export function registerPush(_sw: ServiceWorkerGlobalScope): void {}
