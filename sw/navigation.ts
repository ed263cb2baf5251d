/// <reference lib="webworker" />
/**
 * Navigations: every app route gets the precached index.html, so a page only ever starts with the
 * assets this worker precached alongside it. The navigation preload answers only when the shell is
 * missing from the precache (storage cleared under a running worker).
 */

export interface ShellSources {
  precached: () => Promise<Response | undefined>;
  preloaded: () => Promise<Response | undefined>;
  fetch: () => Promise<Response>;
}

export async function serveAppShell(sources: ShellSources): Promise<Response> {
  const shell = await sources.precached();
  if (shell) return shell;
  const preloaded = await sources.preloaded().catch(() => undefined);
  return preloaded ?? sources.fetch();
}

/** Turns navigation preload on where the browser has it. */
export async function enableNavigationPreload(registration: ServiceWorkerRegistration) {
  await registration.navigationPreload?.enable();
}

/**
 * Keeps each navigation's preload alive until it settles, whoever answers the navigation, so the
 * browser does not cancel it half-way (and denylisted navigations can use it).
 */
export function settleNavigationPreload(event: FetchEvent) {
  // Undefined in browsers without navigation preload.
  const preload = event.preloadResponse as Promise<unknown> | undefined;
  if (event.request.mode === 'navigate' && preload) {
    event.waitUntil(preload.catch(() => undefined));
  }
}
