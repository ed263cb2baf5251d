/**
 * Work a start on a known route can begin before React has rendered it (docs/architecture.md
 * "Code splitting and first paint"): on /signup its page's code, so the page renders over its
 * first screen at once; on /profile and /profile/{username} the shell's and the
 * profile page's code load beside the session check instead of after it, the profile's owner is
 * asked for as soon as the visitor is known to be signed in, and the owner's avatar, the page's
 * largest picture, is preloaded at high priority the moment its address is known.
 */
import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { AVATAR_PRELOAD_REMOVE_MS } from '../lib/constants.ts';
import { avatarUrl } from '../components/avatarUrl.ts';
import { useSession } from '../features/auth/store.ts';
import type { CurrentUser } from '../contracts/readers/user.ts';
import type { FIRST_SCREEN_SOURCES } from '../contracts/constants.ts';

/** A chunk's import that remembers its module once it has arrived. */
export interface WarmImport<M> {
  (): Promise<M>;
  /** The module, once an import of it has answered; undefined before. */
  loaded: () => M | undefined;
}

export function warmImport<M>(load: () => Promise<M>): WarmImport<M> {
  let module: M | undefined;
  const get = () => load().then((value) => (module = value));
  return Object.assign(get, { loaded: () => module });
}

/**
 * React.lazy for a chunk the start may have loaded before the first render: a module already here
 * is handed to React at once (a thenable that answers synchronously), so the route renders
 * without suspending instead of showing its fallback and then waiting out React's throttle on
 * revealing suspended content (300 ms) for code that had arrived.
 */
export function lazyWarm<M, P extends object>(
  load: WarmImport<M>,
  pick: (module: M) => ComponentType<P>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const module = load.loaded();
    if (!module) return load().then((value) => ({ default: pick(value) }));
    const ready = { default: pick(module) };
    const now = { then: (resolve: (value: typeof ready) => unknown) => resolve(ready) };
    return now as unknown as Promise<typeof ready>;
  });
}

export const loadShell = warmImport(() => import('./Shell.tsx'));
export const loadProfilePage = warmImport(() => import('../features/profile/ProfilePage.tsx'));
export const loadSignupPage = warmImport(() => import('../features/auth/SignupPage.tsx'));

/** What each first screen's route loads beside the entry: the modules FIRST_SCREEN_SOURCES names. */
export const FIRST_SCREEN_CODE: Readonly<
  Record<keyof typeof FIRST_SCREEN_SOURCES, WarmImport<unknown>>
> = {
  '/signup': loadSignupPage,
};

const PROFILE_PATH = /^\/profile(?:\/([^/]+))?\/?$/;

/** The username a /profile path names: '' for one's own (/profile), null for another route. */
export function profileRoute(pathname: string): string | null {
  const match = PROFILE_PATH.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
}

/**
 * `<link rel=preload as=image fetchpriority=high>` for the avatar the profile header shows (the
 * same address, so the header's <img> takes the preloaded copy), removed once it has done its work.
 */
export function preloadAvatar(href: string): void {
  const known = [...document.head.querySelectorAll('link[rel="preload"]')].some(
    (link) => link.getAttribute('href') === href,
  );
  if (!href || known) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.href = href;
  link.fetchPriority = 'high';
  document.head.append(link);
  setTimeout(() => link.remove(), AVATAR_PRELOAD_REMOVE_MS);
}

function whenSignedIn(run: (me: CurrentUser) => void): void {
  const check = () => {
    const { status, user } = useSession.getState();
    if (status === 'loading') return false;
    if (status === 'signedIn' && user) run(user);
    return true;
  };
  if (check()) return;
  const stop = useSession.subscribe(() => {
    if (check()) stop();
  });
}

const ignore = () => undefined;

/** The next task: what comes after it runs once the browser has had its turn. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** The shell's and the profile page's code, their costliest modules first, one part per task. */
async function loadProfileRoute(): Promise<void> {
  const { ROUTE_PARTS } = await import('./routeParts.ts');
  for (const part of ROUTE_PARTS) {
    await part();
    await nextTask();
  }
  await loadShell();
  await nextTask();
  await loadProfilePage();
}

/**
 * Starts what `pathname` will need; answers once the route's code is here (or failed to come),
 * at once on a route with nothing to warm.
 */
export function warmRoute(pathname: string): Promise<void> {
  const firstScreen = FIRST_SCREEN_CODE[pathname as keyof typeof FIRST_SCREEN_CODE];
  if (firstScreen) return firstScreen().then(ignore, ignore);
  const username = profileRoute(pathname);
  if (username === null) return Promise.resolve();
  const code = loadProfileRoute().then(ignore, ignore);
  whenSignedIn((me) => {
    if (!username || username.toLowerCase() === me.username.toLowerCase()) {
      preloadAvatar(me.profileImage ? avatarUrl(me.profileImage) : '');
      return;
    }
    import('../features/profile/api.ts')
      .then(({ profileApi }) => profileApi.prefetch(username))
      .then(({ user: owner }) => {
        if (owner?.profileImage) preloadAvatar(avatarUrl(owner.profileImage));
      }, ignore);
  });
  return code;
}
