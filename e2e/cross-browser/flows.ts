/**
 * The main flows every browser must run, written once for both drivers (firefox.ts, webkit.ts),
 * in order: each starts where the one before left the member, and sets up what it needs when an
 * earlier one failed. The texts asserted are those of docs/product.md, as in the Chromium suite.
 */
import * as PATHS from '../../src/contracts/endpoints.paths.ts';
import { SHARE_PATH } from '../../src/contracts/share.ts';
import { PASSWORD, uniqueName } from '../helpers.ts';
import {
  createMember,
  logInApi,
  ownPhotos,
  sendFriendRequest,
  uploadPhoto,
  waitUntilOnline,
} from './api.ts';
import {
  type Query,
  attributeOf,
  setDate,
  thumbnails,
  waitFor,
  waitForPath,
  waitForText,
  waitGone,
  waitUntil,
} from './driver.ts';
import {
  type Flow,
  OFFLINE_BANNER,
  bell,
  button,
  heading,
  logIn,
  member,
  outboxSeen,
  ownProfile,
  photos,
  quiet,
  savedCopies,
  untilAppRuns,
  signOut,
  signedIn,
  underWorker,
  unread,
  viewer,
  watchOutbox,
} from './steps.ts';

export const FLOWS: Flow[] = [
  {
    name: 'signs up with a profile picture',
    async run(story) {
      const { driver, app, files } = story;
      const username = uniqueName('new');
      await driver.goto(`${app.origin}/signup`);
      await waitFor(driver, heading('Create your account'));
      await untilAppRuns(driver);
      await driver.type({ label: 'Username' }, username);
      await waitFor(driver, { css: '[data-testid="username-availability"]', text: 'Available' });
      await driver.type({ label: 'Email' }, `${username}@orbit.example`);
      await setDate(driver, { label: 'Birthday' }, '1994-03-21');
      await driver.type({ label: 'Password' }, PASSWORD);
      await driver.type({ label: 'Confirm password' }, PASSWORD);
      await driver.setFiles({ label: 'Profile image' }, [files.avatar]);
      await waitFor(driver, { role: 'img', name: 'Chosen profile image' });
      await driver.click(button('Create Account'));

      await waitForPath(driver, new RegExp(`^/profile/${username}$`));
      await waitFor(driver, heading(`@${username}`));
      story.member = { username, email: `${username}@orbit.example`, password: PASSWORD };
      story.signedIn = true;
      // The picture chosen is the one the profile shows, served and decoded.
      const avatar: Query = {
        role: 'img',
        name: `@${username}`,
        within: { css: '.profile-header' },
      };
      await waitFor(driver, avatar);
      const src = await attributeOf(driver, avatar, 'src');
      if (!src.includes('/uploads/')) throw new Error(`the profile shows ${src}, not the upload`);
      await thumbnails(driver, avatar, 1);
    },
  },
  {
    name: 'logs in with Remember me and gets a 30-day session',
    async run(story) {
      const who = await member(story);
      await signOut(story);
      await logIn(story, who, true);
      const cookie = await story.driver.cookie('orbit_session');
      const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
      if (days < 29) throw new Error(`the session cookie lasts ${days.toFixed(1)} days, not 30`);
    },
  },
  {
    name: 'uploads two photos on the own profile and opens the viewer',
    async run(story) {
      const { driver, files } = story;
      const who = await signedIn(story);
      await ownProfile(story, who);
      await waitFor(driver, button('Upload'));
      // The Upload button opens the system's file picker, which automation cannot reach: the
      // files go to the input behind it, as the picker would hand them over.
      await driver.setFiles({ css: 'input[type="file"][multiple]' }, files.photos);
      await thumbnails(driver, photos, 2);
      await waitGone(driver, { css: '.photo-tile.pending' });

      await driver.click({ css: '.photo-open', within: { role: 'list', name: 'Photos' } });
      await waitFor(driver, { ...viewer, text: '1 / 2' });
      await driver.press('ArrowRight');
      await waitFor(driver, { ...viewer, text: '2 / 2' });
      await driver.press('Escape');
      await waitGone(driver, viewer);
      // Still there after a reload: they were saved, not only shown.
      await driver.reload();
      await thumbnails(driver, photos, 2);
    },
  },
  {
    name: 'sees a friend request arrive live and accepts it',
    async run(story) {
      const { driver, app } = story;
      const who = await signedIn(story);
      await ownProfile(story, who);
      const before = await unread(driver);
      const friend = await createMember(app.origin);
      const [me, them] = await Promise.all([
        logInApi(app.origin, who),
        logInApi(app.origin, friend),
      ]);
      await waitUntilOnline(app.origin, them, me.id);
      await sendFriendRequest(them, me.id);

      // The badge rises without a reload.
      await waitUntil(
        `the bell to count ${before + 1} unread`,
        async () => (await unread(driver)) === before + 1,
      );
      await driver.click(bell);
      const panel: Query = { role: 'dialog', name: 'Notifications' };
      const item: Query = {
        css: 'li',
        text: `@${friend.username} sent you a friend request`,
        within: panel,
      };
      await waitFor(driver, item);
      await driver.click({ ...button('Accept'), within: item });
      await waitGone(driver, { ...button('Accept'), within: item });
      await driver.press('Escape');
      await waitGone(driver, panel);

      await driver.goto(`${app.origin}/profile/${friend.username}`);
      await waitFor(driver, heading(`@${friend.username}`));
      await waitFor(driver, button('Unfriend'));
      await ownProfile(story, who);
      await waitFor(driver, {
        role: 'link',
        name: `@${friend.username}`,
        within: { css: '.profile-friends' },
      });
    },
  },
  {
    name: 'changes the theme from the top bar, and it stays after a reload',
    async run(story) {
      const { driver, app } = story;
      await signedIn(story);
      await driver.goto(`${app.origin}/spacehub`);
      const toggle: Query = { role: 'button', name: 'Theme:', prefix: true };
      await waitFor(driver, toggle);
      const look = () =>
        driver.run(() => ({
          theme: document.documentElement.dataset.theme ?? '',
          page: getComputedStyle(document.body).backgroundColor,
          text: getComputedStyle(document.body).color,
          bar: getComputedStyle(document.querySelector('.top-bar') ?? document.body)
            .backgroundColor,
        }));
      const before = await look();
      await driver.click(toggle);
      const after = await waitUntil('the theme to change', async () => {
        const now = await look();
        return now.theme !== before.theme ? now : undefined;
      });
      if (after.page === before.page && after.text === before.text && after.bar === before.bar)
        throw new Error(`the colours stayed ${JSON.stringify(before)} in ${after.theme}`);
      // Saved for the member: the reload must not fall back to the old theme.
      await waitUntil('the theme to be saved', () =>
        driver.run(
          async (theme: string) =>
            ((await (await fetch('/api/auth/me')).json()) as { user?: { theme?: string } }).user
              ?.theme === theme,
          after.theme,
        ),
      );
      await driver.reload();
      await waitFor(driver, toggle);
      const reloaded = await look();
      if (JSON.stringify(reloaded) !== JSON.stringify(after))
        throw new Error(`after a reload ${JSON.stringify(reloaded)}, not ${JSON.stringify(after)}`);
    },
  },
  {
    name: 'shows the saved profile on a reload while offline',
    async run(story) {
      const { driver, app } = story;
      const who = await signedIn(story);
      await ownProfile(story, who);
      await underWorker(story);
      // A visit with the worker in control saves the profile for later.
      await driver.reload();
      await waitFor(driver, heading(`@${who.username}`));
      await thumbnails(driver, photos, 2);
      // The visit is over once the worker has saved the session and the calls behind the member's
      // profile for them: the network goes after that. (Thumbnails may come from the browser's
      // own cache.)
      const calls = [PATHS.galleryPage, PATHS.galleryFolders, PATHS.friendsList];
      const saved = await waitUntil('the session and the profile to be saved', async () => {
        const copies = await savedCopies(driver);
        const profile = (path: string) =>
          copies.urls.some(
            (url) => url.startsWith(`${path}?`) && url.includes(`username=${who.username}`),
          );
        if (copies.urls.includes(PATHS.me.path) && calls.every(({ path }) => profile(path)))
          return copies;
        throw new Error(`saved so far: ${JSON.stringify(copies)}`);
      });
      app.network.cut();
      try {
        await driver.reload();
        await waitForText(driver, OFFLINE_BANNER);
        await waitFor(driver, heading(`@${who.username}`));
        await thumbnails(driver, photos, 2);
      } catch (error) {
        // What the worker had to answer with, before the network went and now.
        const now = await savedCopies(driver).catch((reason: unknown) => String(reason));
        throw new Error(
          `${String(error)}; saved before the cut: ${JSON.stringify(saved)}; now: ${JSON.stringify(now)}`,
        );
      } finally {
        app.network.restore();
      }
      await driver.reload();
      await waitFor(driver, heading(`@${who.username}`));
      await waitUntil('the offline banner to go', () =>
        driver.run((text: string) => !document.body.innerText.includes(text), OFFLINE_BANNER),
      );
    },
  },
  {
    name: 'likes a photo offline, and the like is sent once when back',
    async run(story) {
      const { driver, app, files } = story;
      const who = await signedIn(story);
      const me = await logInApi(app.origin, who);
      if ((await ownPhotos(me, app.origin)).length === 0)
        await uploadPhoto(app.origin, me, files.photos[0] ?? files.avatar);
      const likedByMe = async (base: string) =>
        (await ownPhotos(me, base)).filter((image) => image.likes.includes(me.id));
      if ((await likedByMe(app.origin)).length > 0) throw new Error('a photo is liked already');
      await ownProfile(story, who);
      await underWorker(story);
      await watchOutbox(driver);
      await driver.click({ css: '.photo-open', within: { role: 'list', name: 'Photos' } });
      const like = (count: number): Query => ({
        role: 'button',
        name: `Like ${count}`,
        within: viewer,
      });
      await waitFor(driver, like(0));
      await quiet(driver);

      // The network goes while the websocket still looks open: the page learns it is offline
      // from the like itself.
      app.network.cut({ keepWebSockets: true });
      try {
        await driver.click(like(0));
        // The worker kept the call with the action's key and answered 202 with the offline
        // header: the like stands in the page, and the page says it is offline.
        const queued = await waitUntil('the worker to keep the like', async () =>
          (await outboxSeen(driver)).find((seen) => seen.result === 'queued'),
        ).catch(async (error: unknown) => {
          const page = await driver.run(() => ({
            like: document.querySelector('.viewer-reactions .reaction')?.outerHTML,
            outbox: (window as unknown as { outboxSeen: unknown }).outboxSeen,
            banner: document.body.innerText.includes('offline'),
          }));
          throw new Error(`${String(error)}; the page: ${JSON.stringify(page)}`);
        });
        if (!/^[0-9a-f-]{36}$/.test(queued.key))
          throw new Error(`the like was kept without its key: ${JSON.stringify(queued)}`);
        await waitForText(driver, OFFLINE_BANNER);
        if ((await attributeOf(driver, like(1), 'aria-pressed')) !== 'true')
          throw new Error('the like does not stand while it waits to be sent');
        // Nothing left the device: the server, asked past the cut, has no like.
        if ((await likedByMe(app.direct)).length > 0)
          throw new Error('the like reached the server while offline');
      } finally {
        app.network.restore();
      }

      // Back online: without Background Sync, the page's nudge sends what waits.
      await driver.run(() => window.dispatchEvent(new Event('online')));
      await waitUntil('the worker to send the like', async () =>
        (await outboxSeen(driver)).some((seen) => seen.result === 'sent'),
      );
      const liked = await likedByMe(app.origin);
      if (liked.length !== 1 || liked[0]?.likes.length !== 1 || liked[0].likeCount !== 1)
        throw new Error(`after the send the server has ${JSON.stringify(liked)}`);
      // Sent once: a second nudge finds nothing more to send.
      await driver.run(() => window.dispatchEvent(new Event('focus')));
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const sent = (await outboxSeen(driver)).filter((seen) => seen.result === 'sent');
      if (sent.length !== 1) throw new Error(`the worker sent ${JSON.stringify(sent)}`);
      // Read again from the server, the like still stands.
      await waitFor(driver, like(1));
      await driver.press('Escape');
      await waitGone(driver, viewer);
    },
  },
  {
    name: 'uploads from the manager, where the browser takes no shared photos',
    async run(story) {
      const { driver, app, files } = story;
      const who = await signedIn(story);
      await ownProfile(story, who);
      // The manifest offers Orbit as a share target; this browser has none and reads the rest.
      const target = await driver.run(async () => {
        const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
        if (!link) return undefined;
        const manifest = (await (await fetch(link.href)).json()) as {
          share_target?: { action?: string };
        };
        return manifest.share_target?.action;
      });
      if (target !== SHARE_PATH) throw new Error(`the manifest's share target is ${target}`);

      const me = await logInApi(app.origin, who);
      const before = (await ownPhotos(me, app.origin)).length;
      await driver.click(button('View All'));
      const manager: Query = { role: 'dialog', name: `Photos of @${who.username}` };
      await waitFor(driver, manager);
      // Upload asks the browser for its file picker: a click reaches the file input behind it.
      await driver.run(() => {
        document
          .querySelector('.gallery-manager input[type="file"]')
          ?.addEventListener('click', () => Object.assign(window, { pickerAsked: true }));
      });
      await driver.click({ ...button('Upload'), within: manager });
      await waitUntil('the file picker to be asked for', () =>
        driver.run(() => 'pickerAsked' in window),
      );
      // The picker itself is the system's: the file goes to the input, as the picker hands it over.
      await driver.setFiles({ css: 'input[type="file"][multiple]', within: manager }, [
        files.photos[0] ?? files.avatar,
      ]);
      await waitUntil('the upload to reach the server', async () => {
        const count = (await ownPhotos(me, app.origin)).length;
        return count === before + 1 ? count : undefined;
      });
      await thumbnails(
        driver,
        { css: '.photo-open img', within: { css: '.manager-grid' } },
        before + 1,
      );
      await waitGone(driver, { css: '.photo-tile.pending' });
      await driver.click({ ...button('Close'), within: manager });
      await waitGone(driver, manager);
    },
  },
  {
    name: 'logs out from the menu back to the landing page',
    async run(story) {
      const { driver } = story;
      const who = await signedIn(story);
      await driver.click(button('Menu'));
      await driver.click(button('Logout'));
      story.signedIn = false;
      await waitForPath(driver, /^\/landing$/);
      await waitFor(driver, heading('Log in'));
      // The session is over on the server too: nothing answers for the member any more.
      const me = await driver.run(async () => {
        const response = await fetch('/api/auth/me', { headers: { Accept: 'application/json' } });
        return { status: response.status, body: await response.text() };
      });
      const signedOut = me.status === 401 || (me.status === 200 && /"user":null/.test(me.body));
      if (!signedOut || me.body.includes(who.username))
        throw new Error(`after logout /api/auth/me: ${me.status} ${me.body}`);
    },
  },
];
