import { type Page, expect } from '@playwright/test';
import { expectRoundAvatars } from './avatars.ts';
import { createMember, logIn, signedIn } from './helpers.ts';
import { sendFriendRequest, test } from './pwa-helpers.ts';

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search members' });

test('two members become friends live, then one unfriends through the dialog', async ({
  browser,
  request,
  baseURL,
}) => {
  const alice = await createMember(request, baseURL ?? '', {
    firstName: 'Alice',
    lastName: 'Nova',
  });
  const bob = await createMember(request, baseURL ?? '', { firstName: 'Bob', lastName: 'Orion' });
  const a = await signedIn(browser, alice);
  const b = await signedIn(browser, bob);
  await b.goto(`/profile/${alice.username}`);
  await expect(b.getByRole('button', { name: 'Add', exact: true })).toBeVisible();

  // A finds B by keyboard only and sends a request from the search row.
  await searchBox(a).focus();
  await a.keyboard.type(bob.username);
  const row = a.locator('.search-row', { hasText: `@${bob.username}` });
  await expect(row).toBeVisible();
  await expect(row.getByText('Bob Orion')).toBeVisible();
  await expectRoundAvatars(row);
  await a.keyboard.press('Tab');
  await expect(row.getByRole('button', { name: 'Add Friend' })).toBeFocused();
  await a.keyboard.press('Enter');
  await expect(row.getByRole('button', { name: 'Cancel' })).toBeVisible();

  // B's open tab shows the incoming request without a reload.
  await expect(b.getByRole('button', { name: 'Accept' })).toBeVisible();
  await expect(b.getByRole('button', { name: 'Decline' })).toBeVisible();

  // B accepts from the search row; both sides read Friends.
  await searchBox(b).fill(alice.username);
  const bRow = b.locator('.search-row', { hasText: `@${alice.username}` });
  await bRow.getByRole('button', { name: 'Accept' }).click();
  await expect(bRow.getByText('Friends', { exact: true })).toBeVisible();
  await expect(row.getByText('Friends', { exact: true })).toBeVisible();
  await b.keyboard.press('Escape');
  await expect(b.getByRole('button', { name: 'Unfriend' })).toBeVisible();

  // A opens B's profile from the search with Enter and unfriends through the dialog.
  await searchBox(a).fill(bob.username);
  await expect(row).toBeVisible();
  await searchBox(a).press('ArrowDown');
  await searchBox(a).press('Enter');
  await expect(a).toHaveURL(new RegExp(`/profile/${bob.username}$`));
  await expect(searchBox(a)).toHaveValue('');
  await a.getByRole('button', { name: 'Unfriend' }).click();
  const dialog = a.getByRole('dialog', { name: `Unfriend @${bob.username}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Confirm Unfriend' }).click();
  await expect(a.getByText('Removed from friends')).toBeVisible();
  await expect(a.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(b.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(a.getByText('Removed from friends')).toBeHidden({ timeout: 3_000 });

  await a.context().close();
  await b.context().close();
});

test('a search row reads Canceling… while its cancel runs, then Add Friend', async ({
  memberPage: page,
  otherMember: dave,
}) => {
  await searchBox(page).fill(dave.username);
  const row = page.locator('.search-row', { hasText: `@${dave.username}` });
  await row.getByRole('button', { name: 'Add Friend' }).click();
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/users/friends/cancel', async (route) => {
    await held;
    await route.continue();
  });
  await row.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByRole('button', { name: 'Canceling…' })).toBeDisabled();
  release();
  await expect(row.getByRole('button', { name: 'Add Friend' })).toBeEnabled();
});

test('a failing friend call reverts the button and shows the spec toast', async ({
  memberPage: page,
  otherMember: dave,
}) => {
  await page.goto(`/profile/${dave.username}`);
  await page.route('**/api/users/friends/request', (route) =>
    route.fulfill({ status: 500, body: '{}' }),
  );
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Could not send request.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeEnabled();
  await page.unroute('**/api/users/friends/request');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Friend request sent')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await page.context().close();
});

test('the search says so when nothing matches, and Escape closes it and keeps the query', async ({
  memberPage: page,
}) => {
  await searchBox(page).fill('zzzz-nobody-here');
  await expect(page.getByText('No results.')).toBeVisible();
  await searchBox(page).press('Escape');
  await expect(page.getByText('No results.')).toBeHidden();
  // Only the dropdown closes: the query stays, to open the list again with ArrowDown.
  await expect(searchBox(page)).toHaveValue('zzzz-nobody-here');
  await page.route('**/api/users/search**', (route) => route.fulfill({ status: 500, body: '' }));
  await searchBox(page).fill('someone');
  await expect(page.getByText('Search error. Try again.')).toBeVisible();
});

test("a request sent while the other member's socket is still connecting shows on their open profile without a reload", async ({
  browser,
  memberApi: alice,
  otherMemberApi: bob,
}) => {
  // Bob's tab: its socket reaches the server only once the gate opens.
  const context = await browser.newContext();
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  await context.routeWebSocket(/\/socket\.io\//, async (socket) => {
    await gate;
    socket.connectToServer();
  });
  const b = await context.newPage();
  await logIn(b, bob);
  await expect(b).toHaveURL(`/profile/${bob.username}`);
  await b.goto(`/profile/${alice.username}`);
  await expect(b.getByRole('button', { name: 'Add', exact: true })).toBeVisible();

  // Alice asks while Bob's socket has not joined his room: no event can tell his tab.
  await sendFriendRequest(alice, bob);
  await expect(b.getByRole('button', { name: 'Add', exact: true })).toBeVisible();

  // The socket connects: the profile on screen catches up, no reload.
  open();
  await expect(b.getByRole('button', { name: 'Accept' })).toBeVisible({ timeout: 15_000 });
  await expect(b.getByRole('button', { name: 'Decline' })).toBeVisible();
  await context.close();
});

test('another tab of the member who acted catches up over orbit:friends while its socket is down', async ({
  browser,
  memberApi: alice,
  otherMemberApi: bob,
}) => {
  await sendFriendRequest(alice, bob);

  const context = await browser.newContext();
  const first = await context.newPage();
  await logIn(first, bob);
  await expect(first).toHaveURL(`/profile/${bob.username}`);
  await first.goto(`/profile/${alice.username}`);
  // Bob's second tab never reaches the socket server: no friend event can tell it.
  const second = await context.newPage();
  await second.routeWebSocket(/\/socket\.io\//, () => undefined);
  await second.goto(`/profile/${alice.username}`);
  await expect(second.getByRole('button', { name: 'Accept' })).toBeVisible();
  const told = second.evaluate(
    () =>
      new Promise<unknown>((resolve) => {
        const channel = new BroadcastChannel('orbit:friends');
        channel.onmessage = (event: MessageEvent) => {
          channel.close();
          resolve(event.data);
        };
      }),
  );

  await first.getByRole('button', { name: 'Accept' }).click();
  await expect(first.getByRole('button', { name: 'Unfriend' })).toBeVisible();
  expect(await told).toEqual({ type: 'accepted', userId: alice.id });
  await expect(second.getByRole('button', { name: 'Unfriend' })).toBeVisible();
  await context.close();
});
