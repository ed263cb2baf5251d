import { type Locator, type Page, expect } from '@playwright/test';
import { addPhotos, createMember, signedIn, test } from './helpers.ts';

// Keyboard members: focus stays where the work is, and every dialog gives it back.
test.describe.configure({ timeout: 60_000 });

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });
const counter = (page: Page) => viewer(page).locator('.viewer-counter');

/** Focus is on an element inside the locator (not on <body>, not behind the dialog). */
async function expectFocusWithin(locator: Locator, what: string) {
  await expect
    .poll(() => locator.evaluate((element) => element.contains(document.activeElement)), {
      message: `focus stays in the ${what}`,
    })
    .toBe(true);
}

async function chooseAction(page: Page, name: string) {
  await viewer(page).getByRole('button', { name: 'Image actions' }).click();
  await viewer(page).getByRole('menuitem', { name }).click();
}

/** Deletes the photo the viewer shows, confirming. */
async function deleteShownPhoto(page: Page) {
  await chooseAction(page, 'Delete image');
  await page
    .getByRole('dialog', { name: 'Delete image?' })
    .getByRole('button', { name: 'Delete' })
    .click();
}

test('the viewer keeps focus after a like, a caption save, menu actions and a delete; the arrows keep working', async ({
  memberPage: page,
  baseURL,
}) => {
  await addPhotos(page, baseURL ?? '', 4);
  await page.reload();
  const thumbnails = page.getByRole('list', { name: 'Photos' }).locator('.photo-open');
  await expect(thumbnails).toHaveCount(4);
  await thumbnails.first().click();
  await expect(counter(page)).toHaveText('1 / 4');

  // Like.
  await viewer(page)
    .getByRole('button', { name: /^Like\b/ })
    .click();
  await expect(viewer(page).getByRole('button', { name: /^Like\b/ })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expectFocusWithin(viewer(page), 'viewer after a like');
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('2 / 4');

  // Caption: save, then cancel.
  await chooseAction(page, 'Edit caption');
  await expect(viewer(page).getByLabel('Caption')).toBeFocused();
  await viewer(page).getByLabel('Caption').fill('Orion rising');
  await viewer(page).getByRole('button', { name: 'Save' }).click();
  await expect(viewer(page).getByText('Orion rising')).toBeVisible();
  await expectFocusWithin(viewer(page), 'viewer after saving a caption');
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('3 / 4');
  await chooseAction(page, 'Edit caption');
  await viewer(page).getByRole('button', { name: 'Cancel' }).click();
  await expectFocusWithin(viewer(page), 'viewer after cancelling a caption');
  await page.keyboard.press('ArrowLeft');
  await expect(counter(page)).toHaveText('2 / 4');

  // Menu actions that close the menu.
  for (const action of ['Hide info', 'Show info', 'Share link']) {
    await chooseAction(page, action);
    await expectFocusWithin(viewer(page), `viewer after ${action}`);
  }
  await expect(viewer(page).getByRole('button', { name: 'Image actions' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(counter(page)).toHaveText('3 / 4');

  // The delete confirmation, left with Escape or Cancel, gives focus back to the ⋯ button.
  const confirm = page.getByRole('dialog', { name: 'Delete image?' });
  const actionsButton = viewer(page).getByRole('button', { name: 'Image actions' });
  await chooseAction(page, 'Delete image');
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(actionsButton).toBeFocused();
  await chooseAction(page, 'Delete image');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(actionsButton).toBeFocused();

  // Delete: the confirmation closes and focus is back in the viewer, on the next image.
  await chooseAction(page, 'Delete image');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(counter(page)).toHaveText('3 / 3');
  await expectFocusWithin(viewer(page), 'viewer after a delete');
  await page.keyboard.press('ArrowLeft');
  await expect(counter(page)).toHaveText('2 / 3');

  // Closing the viewer gives focus back to the thumbnail that opened it.
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  await expect(thumbnails.first()).toBeFocused();
});

test('every dialog gives focus back to what opened it', async ({
  member: owner,
  memberPage: page,
  otherMember: friend,
  browser,
  baseURL,
}) => {
  await addPhotos(page, baseURL ?? '', 1);
  await page.reload();

  // The gallery manager.
  const viewAll = page.getByRole('region', { name: 'Photos' }).getByRole('button', {
    name: 'View All',
  });
  await viewAll.click();
  const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
  await expect(manager).toBeVisible();
  await manager.getByRole('button', { name: 'Close' }).click();
  await expect(viewAll).toBeFocused();

  // The bell dropdown, and the full panel opened from it.
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await bell.click();
  const dropdown = page.getByRole('dialog', { name: 'Notifications', exact: true });
  await expect(dropdown).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dropdown).toBeHidden();
  await expect(bell).toBeFocused();
  await bell.click();
  await dropdown.getByRole('button', { name: 'View All' }).click();
  const overlay = page.locator('dialog.notifications-overlay');
  await expect(overlay).toBeVisible();
  await overlay.getByRole('button', { name: 'Close notifications' }).click();
  await expect(overlay).toBeHidden();
  await expect(bell).toBeFocused();

  // The menu.
  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeFocused();

  // The unfriend confirmation.
  await page.goto(`/profile/${friend.username}`);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeVisible();
  const other = await signedIn(browser, friend);
  await other.goto(`/profile/${owner.username}`);
  await other.getByRole('button', { name: 'Accept' }).click();
  await expect(other.getByRole('button', { name: 'Unfriend' })).toBeVisible();
  await other.context().close();
  await page.reload();
  const unfriend = page.getByRole('button', { name: 'Unfriend' });
  await unfriend.click();
  const confirm = page.getByRole('dialog', { name: `Unfriend @${friend.username}?` });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(unfriend).toBeFocused();
});

test('focus comes back after the phone search, Unblock, and the viewer whose photo was deleted', async ({
  browser,
  request,
  baseURL,
  member: owner,
}) => {
  const origin = baseURL ?? '';
  const others = [await createMember(request, origin), await createMember(request, origin)];
  const page = await signedIn(browser, owner, {
    context: { viewport: { width: 360, height: 740 }, hasTouch: true },
  });
  // The phone's search: its close button, and Escape, give focus back to `Search`.
  const searchButton = page.getByRole('button', { name: 'Search', exact: true });
  await searchButton.click();
  await expect(page.getByRole('combobox', { name: /Search/ })).toBeFocused();
  await page.getByRole('button', { name: 'Close search' }).click();
  await expect(searchButton).toBeFocused();
  await searchButton.click();
  await page.keyboard.press('Escape');
  await expect(searchButton).toBeFocused();

  // The gallery manager gives focus back to View All.
  await addPhotos(page, origin, 2);
  await page.reload();
  const photos = page.getByRole('region', { name: 'Photos' });
  const viewAll = photos.getByRole('button', { name: 'View All' });
  await viewAll.click();
  const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
  await expect(manager).toBeVisible();
  await manager.getByRole('button', { name: 'Close' }).first().click();
  await expect(manager).toBeHidden();
  await expect(viewAll).toBeFocused();

  // The viewer's photo deleted: focus goes to the thumbnail now in its place, then, with no
  // photo left, into the Photos section.
  const thumbnails = photos.locator('.photo-open');
  await thumbnails.first().click();
  await deleteShownPhoto(page);
  await expect(counter(page)).toHaveText('1 / 1');
  await page.keyboard.press('Escape');
  await expect(viewer(page)).toBeHidden();
  await expect(thumbnails).toHaveCount(1);
  await expect(thumbnails.first()).toBeFocused();
  await thumbnails.first().click();
  await deleteShownPhoto(page);
  await expect(viewer(page)).toBeHidden();
  await expect(thumbnails).toHaveCount(0);
  await expectFocusWithin(photos, 'Photos section');

  // Unblock: focus moves to the next Unblock, then to the section's title.
  for (const other of others) {
    const profile = await page.request.get(`/api/users/profile/${other.username}`);
    const { user } = (await profile.json()) as { user: { id: string } };
    const blocked = await page.request.post('/api/users/blocks', {
      headers: { Origin: origin },
      data: { userId: user.id },
    });
    expect(blocked.ok()).toBe(true);
  }
  await page.goto('/settings');
  const blockedList = page.getByRole('region', { name: 'Blocked members' });
  const unblock = blockedList.getByRole('button', { name: /^Unblock @/ });
  await expect(unblock).toHaveCount(2);
  await unblock.first().click();
  await expect(unblock).toHaveCount(1);
  await expect(unblock.first()).toBeFocused();
  await unblock.first().click();
  await expect(unblock).toHaveCount(0);
  await expect(blockedList.getByRole('heading', { name: 'Blocked members' })).toBeFocused();
  await page.context().close();
});
