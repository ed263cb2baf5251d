import { type Page, expect } from '@playwright/test';
import { expectRoundAvatars } from './avatars.ts';
import { createMember, signedIn, test } from './helpers.ts';

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const dropdown = (page: Page) => page.getByRole('dialog', { name: 'Notifications', exact: true });
const overlay = (page: Page) => page.locator('dialog.notifications-overlay');

test('friend requests and notifications flow live between two members and across tabs', async ({
  browser,
  request,
  baseURL,
}) => {
  // Three pages and two members on one server: a long story, given room on a busy machine.
  test.setTimeout(60_000);
  const alice = await createMember(request, baseURL ?? '');
  const bob = await createMember(request, baseURL ?? '');
  const a = await signedIn(browser, alice);
  const b = await signedIn(browser, bob);
  const b2 = await b.context().newPage();
  await b2.goto('/spacehub');

  // Only the welcome notification so far.
  await expect(bell(b)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await expect(bell(b2)).toHaveAttribute('aria-label', 'Notifications, 1 unread');

  // A sends B a request; B's badge rises live (the welcome plus the request, counted once).
  await a.goto(`/profile/${bob.username}`);
  await a.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(a.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await expect(bell(b)).toHaveAttribute('aria-label', 'Notifications, 2 unread');
  await expect(b.getByTestId('bell-badge')).toHaveText('2');

  // B accepts from the bell.
  await bell(b).click();
  const panel = dropdown(b);
  await expect(panel).toBeVisible();
  // Focus moves into the dropdown and Tab stays inside it.
  await expect(panel.getByRole('tab', { name: 'All' })).toBeFocused();
  await b.keyboard.press('Shift+Tab');
  await expect(panel.getByRole('button', { name: 'View All' })).toBeFocused();
  await b.keyboard.press('Tab');
  await expect(panel.getByRole('tab', { name: 'All' })).toBeFocused();
  // The request's row in the Requests tab has the same round avatar as everywhere else.
  await panel.getByRole('tab', { name: /^Requests/ }).click();
  await expect(panel.locator('.request-row', { hasText: `@${alice.username}` })).toBeVisible();
  await expectRoundAvatars(panel.locator('.request-row'));
  await panel.getByRole('tab', { name: 'All' }).click();
  const requestItem = panel.locator('li', {
    hasText: `@${alice.username} sent you a friend request`,
  });
  await expect(requestItem).toBeVisible();
  await expect(requestItem.getByRole('link', { name: 'View' })).toHaveAttribute(
    'href',
    `/profile/${alice.username}`,
  );
  await requestItem.getByRole('button', { name: 'Accept' }).click();
  await expect(requestItem.getByRole('button', { name: 'Accept' })).toBeHidden();

  // The Requests tab agrees: nothing pending any more.
  await panel.getByRole('tab', { name: /^Requests/ }).click();
  await expect(panel.getByText('No incoming requests.')).toBeVisible();
  await panel.getByRole('tab', { name: /^Sent/ }).click();
  await expect(panel.getByText('No sent requests.')).toBeVisible();
  await b.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell(b)).toBeFocused();

  // A gets the follow notification live.
  await expect(bell(a)).toHaveAttribute('aria-label', 'Notifications, 2 unread');
  await bell(a).click();
  await expect(
    dropdown(a).getByText(`@${bob.username} accepted your friend request`),
  ).toBeVisible();
  await expect(
    dropdown(a)
      .getByText(/\d+s ago/)
      .first(),
  ).toBeVisible();

  // B marks all read in one tab; the other tab's badge follows.
  await expect(bell(b)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await expect(bell(b2)).toHaveAttribute('aria-label', 'Notifications, 1 unread');
  await bell(b).click();
  await dropdown(b).getByRole('tab', { name: 'All' }).click();
  await dropdown(b).getByRole('button', { name: 'Mark all read' }).click();
  await expect(dropdown(b).getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await expect(bell(b)).toHaveAttribute('aria-label', 'Notifications');
  await expect(bell(b2)).toHaveAttribute('aria-label', 'Notifications');

  // The full panel: filters hide and show types.
  await dropdown(b).getByRole('button', { name: 'View All' }).click();
  const full = overlay(b);
  await expect(full).toBeVisible();
  const welcome = full.getByText('Welcome to Orbit!');
  const friendRequest = full.getByText(`@${alice.username} sent you a friend request`);
  await expect(welcome).toBeVisible();
  await expect(friendRequest).toBeVisible();
  for (const label of ['Likes', 'Comments', 'Replies', 'Friend Requests', 'Follows', 'System']) {
    await expect(full.getByRole('switch', { name: label })).toBeChecked();
  }
  await full.getByRole('switch', { name: 'System' }).uncheck();
  await expect(welcome).toBeHidden();
  await expect(friendRequest).toBeVisible();
  await full.getByRole('switch', { name: 'Friend Requests' }).uncheck();
  await expect(friendRequest).toBeHidden();
  await full.getByRole('switch', { name: 'System' }).check();
  await full.getByRole('switch', { name: 'Friend Requests' }).check();
  await expect(welcome).toBeVisible();
  await expect(friendRequest).toBeVisible();
  await expect(full.getByRole('link', { name: `@${alice.username}'s profile` })).toHaveAttribute(
    'href',
    `/profile/${alice.username}`,
  );

  // Escape closes the panel; View All opens it again.
  await b.keyboard.press('Escape');
  await expect(full).toBeHidden();
  await bell(b).click();
  await dropdown(b).getByRole('button', { name: 'View All' }).click();
  await expect(full).toBeVisible();

  // Clear All asks first: Cancel keeps everything and focus goes back to Clear All.
  const clearAll = full.getByRole('button', { name: 'Clear All' });
  await clearAll.click();
  const confirm = b.getByRole('dialog', { name: 'Clear all notifications?' });
  await expect(confirm).toContainText(
    'This removes every notification, on all your devices. It can’t be undone.',
  );
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(clearAll).toBeFocused();
  await expect(full.getByText('No notifications yet.')).toHaveCount(0);
  await expect(full.getByRole('list', { name: 'All notifications' })).toBeVisible();

  // Confirmed, it empties the list, here and in the other tab, and survives a reload.
  await clearAll.click();
  await confirm.getByRole('button', { name: 'Clear All' }).click();
  await expect(confirm).toBeHidden();
  await expect(full.getByText('No notifications yet.')).toBeVisible();
  // Focus stays in the panel, on the emptied list, not on the page behind.
  await expect(full.locator('.notifications-overlay-body')).toBeFocused();
  await full.getByRole('button', { name: 'Close notifications' }).click();
  await expect(full).toBeHidden();
  await bell(b2).click();
  await expect(dropdown(b2).getByText('No notifications yet.')).toBeVisible();
  await b.reload();
  await bell(b).click();
  await expect(dropdown(b).getByText('No notifications yet.')).toBeVisible();
  await dropdown(b).getByRole('button', { name: 'View All' }).click();
  await expect(overlay(b).getByText('No notifications yet.')).toBeVisible();

  await a.context().close();
  await b.context().close();
});

test('a dismissed notification stays gone and the request list shows its error text', async ({
  memberPage: page,
}) => {
  await bell(page).click();
  await dropdown(page).getByRole('button', { name: 'View All' }).click();
  const full = overlay(page);
  await expect(full.getByText('Welcome to Orbit!')).toBeVisible();
  // The panel's own words, beside its Clear All.
  const markAllRead = full.getByRole('button', { name: 'Mark All Read', exact: true });
  await expect(markAllRead).toBeEnabled();
  await markAllRead.click();
  await expect(markAllRead).toBeDisabled();
  await expect(full.getByText('(0 unread)')).toBeVisible();
  await full.getByRole('button', { name: 'Dismiss' }).click();
  await expect(full.getByText('No notifications yet.')).toBeVisible();

  // A failing list with no body reads 'Error: Failed to load'.
  await page.route('**/api/users/friends/incoming', (route) =>
    route.fulfill({ status: 500, body: '' }),
  );
  await full.getByRole('tab', { name: 'Requests' }).click();
  await expect(full.getByText('Error: Failed to load')).toBeVisible();
  await page.unroute('**/api/users/friends/incoming');
  await full.getByRole('button', { name: 'Refresh requests' }).click();
  await expect(full.getByText('No incoming requests.')).toBeVisible();

  // Backdrop click closes.
  await page.mouse.click(5, 5);
  await expect(full).toBeHidden();
  await page.reload();
  await bell(page).click();
  await expect(dropdown(page).getByText('No notifications yet.')).toBeVisible();
  await page.context().close();
});
