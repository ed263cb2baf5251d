/** What the flows of flows.ts share: the story they follow, where things are, signing in. */
import type { Member } from '../helpers.ts';
import { createMember } from './api.ts';
import type { AppServer } from './app-server.ts';
import {
  type Driver,
  type Query,
  attributeOf,
  waitFor,
  waitForPath,
  waitUntil,
  whichShows,
} from './driver.ts';
import type { Files } from './files.ts';

export interface Story {
  driver: Driver;
  app: AppServer;
  files: Files;
  /** The member the flows follow, once signed up. */
  member?: Member;
  /** Whether the browser is signed in as `member` (false after a flow failed). */
  signedIn: boolean;
}

export interface Flow {
  name: string;
  run: (story: Story) => Promise<void>;
}

export const OFFLINE_BANNER = "You're offline — showing saved data";
export const heading = (name: string): Query => ({ role: 'heading', name });
export const button = (name: string): Query => ({ role: 'button', name });
export const photos: Query = { css: '.photo-open img', within: { role: 'list', name: 'Photos' } };
export const viewer: Query = { role: 'dialog', name: 'Image viewer' };
export const bell: Query = { role: 'button', name: 'Notifications', prefix: true };

/** The member of the story; made through the API when the sign-up flow did not get that far. */
export async function member(story: Story): Promise<Member> {
  story.member ??= await createMember(story.app.origin);
  return story.member;
}

/** Signs in through the landing page unless the flow before left the member signed in. */
export async function signedIn(story: Story): Promise<Member> {
  const who = await member(story);
  if (story.signedIn) return who;
  await signOut(story);
  await logIn(story, who, false);
  return who;
}

/**
 * Makes sure nobody is signed in, the way a member does it: the menu's Logout ends the session in
 * the app (its saved data, the service worker's copies) and on the server. Clearing cookies alone
 * would leave the service worker's copy of the member, which it serves when the server is slow.
 * A guarded page tells the two states apart only once the session is known (the landing page shows
 * its form while it loads).
 */
export async function signOut(story: Story) {
  const { driver, app } = story;
  await driver.goto(`${app.origin}/settings`);
  if ((await whichShows(driver, [heading('Log in'), heading('Settings')])) === 1) {
    await driver.click(button('Menu'));
    await driver.click(button('Logout'));
    await waitForPath(driver, /^\/landing$/);
    await waitFor(driver, heading('Log in'));
  }
  story.signedIn = false;
}

/**
 * Once the app has rendered over the page's first screen (`/landing`, `/signup`): the document's
 * own first screen takes no input; the app's form does.
 */
export async function untilAppRuns(driver: Driver) {
  await waitUntil('the app to take over the first screen', () =>
    driver.run(() => document.querySelector('input[readonly]') === null),
  );
}

export async function logIn(story: Story, who: Member, remember: boolean) {
  const { driver, app } = story;
  await driver.goto(`${app.origin}/landing`);
  await waitFor(driver, heading('Log in'));
  await untilAppRuns(driver);
  await driver.type({ label: 'Username or email' }, who.username);
  await driver.type({ label: 'Password' }, who.password);
  if (remember) await driver.click({ label: 'Remember me' });
  await driver.click(button('Login'));
  await waitForPath(driver, new RegExp(`^/profile/${who.username}$`));
  await waitFor(driver, heading(`@${who.username}`));
  story.signedIn = true;
}

export async function ownProfile(story: Story, who: Member) {
  await story.driver.goto(`${story.app.origin}/profile/${who.username}`);
  await waitFor(story.driver, heading(`@${who.username}`));
}

/**
 * Makes sure the service worker controls the page, as after a member's second visit: it installs
 * in the background, and once it is active a reload is under its control.
 */
export async function underWorker(story: Story) {
  const { driver, app } = story;
  const worker = await driver.run(() => 'serviceWorker' in navigator);
  if (!worker) throw new Error(`${driver.browser} offers no service worker on ${app.origin}`);
  if (await driver.run(() => navigator.serviceWorker.controller?.state === 'activated')) return;
  await waitUntil('the service worker to be active', () =>
    driver.run(
      async () => (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated',
    ),
  );
  await driver.reload();
  await waitUntil('the service worker to control the page', () =>
    driver.run(() => navigator.serviceWorker.controller?.state === 'activated'),
  );
}

/** The unread count the bell announces (`Notifications, 2 unread`), 0 without a badge. */
export async function unread(driver: Driver): Promise<number> {
  const label = await attributeOf(driver, bell, 'aria-label');
  return Number(/(\d+) unread/.exec(label)?.[1] ?? 0);
}

/**
 * Waits until the page has asked for nothing new for `ms` (by its resource timing): the calls a
 * view makes as it opens are answered, so cutting the network after this fails none of them.
 */
export async function quiet(driver: Driver, ms = 750) {
  let last = -1;
  let since = Date.now();
  await waitUntil(`the page to make no request for ${ms} ms`, async () => {
    const count = await driver.run(() => performance.getEntriesByType('resource').length);
    if (count !== last) {
      last = count;
      since = Date.now();
    }
    return Date.now() - since >= ms;
  });
}

/** An outbox message of the worker's: an item `queued`, `sent`, `refused` or still `waiting`. */
interface OutboxSeen {
  key: string;
  result: string;
}

/** Starts keeping, in the page, the worker's outbox messages (src/features/offline/outbox.ts). */
export function watchOutbox(driver: Driver): Promise<void> {
  return driver.run(() => {
    const seen: OutboxSeen[] = [];
    Object.assign(window, { outboxSeen: seen });
    navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as { type?: unknown } | null;
      if (data?.type === 'outbox') seen.push(data as OutboxSeen);
    });
  });
}

/** The worker's outbox messages the page heard since `watchOutbox`, in order. */
export function outboxSeen(driver: Driver): Promise<OutboxSeen[]> {
  return driver.run(() => (window as unknown as { outboxSeen: OutboxSeen[] }).outboxSeen);
}

/** Who the service worker saves for, and the addresses of the answers and pictures it has saved (src/lib/idb.ts). */
export function savedCopies(driver: Driver): Promise<SavedCopies> {
  return driver.run(
    () =>
      new Promise<SavedCopies>((resolve, reject) => {
        const open = indexedDB.open('orbit');
        // Not made yet: asking must not make an empty one the app would then upgrade from.
        open.onupgradeneeded = () => open.transaction?.abort();
        open.onerror = () => reject(new Error(String(open.error)));
        open.onsuccess = () => {
          if (!open.result.objectStoreNames.contains('meta')) {
            open.result.close();
            reject(new Error('nothing saved yet'));
            return;
          }
          const tx = open.result.transaction(['meta', 'responses', 'media']);
          const member = tx.objectStore('meta').get('currentMember');
          const responses = tx.objectStore('responses').getAllKeys();
          const media = tx.objectStore('media').getAllKeys();
          const paths = (keys: IDBValidKey[]) =>
            (keys as [string, string][]).map(([, url]) => {
              const { pathname, search } = new URL(url);
              return pathname + search;
            });
          tx.oncomplete = () => {
            open.result.close();
            resolve({
              member: member.result as unknown,
              urls: paths(responses.result),
              media: paths(media.result),
            });
          };
          tx.onerror = () => reject(new Error(String(tx.error)));
        };
      }),
  );
}

export interface SavedCopies {
  member: unknown;
  urls: string[];
  media: string[];
}
