import { type Locator, type Page, expect } from '@playwright/test';
import { addPhotos, signedIn } from './helpers.ts';
import { OFFLINE_BANNER, controlledPage, test } from './pwa-helpers.ts';

// Two browsers per test, photos uploaded: more than the default 30 s when the machine is busy.
test.describe.configure({ timeout: 60_000 });

const BLOCK_TEXT =
  'They won’t find you in search or see your profile, photos or friends, and they can’t send you friend requests. You’ll stop being friends and any pending requests between you are removed. They won’t be told.';
const THANKS = 'Thanks — a moderator will review this.';
const REASONS = [
  'Spam',
  'Harassment',
  'Nudity or sexual content',
  'Violence',
  'Impersonation',
  'Other',
];

const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search members' });
const moreButton = (page: Page, username: string) =>
  page.getByRole('button', { name: `More actions for @${username}` });
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });

/**
 * Tab and Shift+Tab never reach the page behind the dialog: focus stays on the dialog's own
 * controls (or leaves the document for the browser's, as a modal lets it) and comes back to them.
 */
async function expectFocusTrapped(page: Page, dialog: Locator) {
  const where = () =>
    dialog.evaluate((element) => {
      const active = document.activeElement;
      if (!active || active === document.body) return 'nowhere';
      if (element.contains(active)) return 'dialog';
      return `behind: ${active.outerHTML.slice(0, 80)}`;
    });
  const seen = new Set<string>();
  for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
    await page.keyboard.press(key);
    const at = await where();
    seen.add(at);
    expect(['dialog', 'nowhere'], `focus after ${key}`).toContain(at);
  }
  expect(seen.has('dialog')).toBe(true);
}

async function chooseReason(dialog: Locator, reason: string) {
  const group = dialog.getByRole('radiogroup', { name: 'Why are you reporting this?' });
  await expect(group.getByRole('radio')).toHaveCount(REASONS.length);
  for (const [index, label] of REASONS.entries())
    await expect(group.getByRole('radio').nth(index)).toHaveAccessibleName(label);
  await group.getByRole('radio', { name: reason }).check();
}

test('a member blocks another from their profile ⋯ and the other no longer finds them', async ({
  browser,
  member: alice,
  otherMember: bob,
}) => {
  const b = await signedIn(browser, bob);
  // Before the block Bob finds Alice in the header search.
  await searchBox(b).fill(alice.username);
  await expect(b.locator('.search-row', { hasText: `@${alice.username}` })).toBeVisible();
  await searchBox(b).press('Escape');

  const a = await signedIn(browser, alice, { path: `/profile/${bob.username}` });
  // They are friends: the block will end that.
  await a.getByRole('button', { name: 'Add', exact: true }).click();
  await b.goto(`/profile/${alice.username}`);
  await b.getByRole('button', { name: 'Accept' }).click();
  await expect(a.getByRole('button', { name: 'Unfriend' })).toBeVisible();

  // Another's profile has a ⋯, opened with Enter.
  const more = moreButton(a, bob.username);
  await expect(more).toBeVisible();
  await more.focus();
  await a.keyboard.press('Enter');
  const menu = a.getByRole('menu', { name: `More actions for @${bob.username}` });
  await expect(menu.getByRole('menuitem')).toHaveText([`Block @${bob.username}`, 'Report']);
  await expect(menu.getByRole('menuitem', { name: `Block @${bob.username}` })).toBeFocused();
  await a.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Report' })).toBeFocused();
  await a.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(more).toBeFocused();

  // Asked first; the dialog keeps focus and Cancel gives it back to the ⋯.
  await a.keyboard.press('Enter');
  await a.keyboard.press('Enter');
  const dialog = a.getByRole('dialog', { name: `Block @${bob.username}?` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(BLOCK_TEXT, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'Block', exact: true })).toBeVisible();
  await expectFocusTrapped(a, dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).focus();
  await a.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(more).toBeFocused();

  // Blocked: Alice is on her own profile, which says so.
  await more.click();
  await menu.getByRole('menuitem', { name: `Block @${bob.username}` }).click();
  await dialog.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(a).toHaveURL(new RegExp(`/profile/${alice.username}$`));
  await expect(a.getByRole('heading', { name: `@${alice.username}` })).toBeVisible();
  await expect(a.getByText(`Blocked @${bob.username}`, { exact: true })).toBeVisible();
  await expect(moreButton(a, alice.username)).toHaveCount(0);
  await expect(a.getByText('0 Friends • 0 Posts • 0 Likes')).toBeVisible();
  await expect(a.getByText('No friends yet.')).toBeVisible();
  // The toast goes, and a reload does not bring it back.
  await expect(a.getByText(`Blocked @${bob.username}`, { exact: true })).toBeHidden({
    timeout: 5_000,
  });
  await a.reload();
  await expect(a.getByRole('heading', { name: `@${alice.username}` })).toBeVisible();
  await expect(a.getByText(`Blocked @${bob.username}`, { exact: true })).toHaveCount(0);

  // Bob's search no longer finds Alice, and her profile is as if she were not there.
  await searchBox(b).fill(alice.username);
  await expect(b.getByText('No results.')).toBeVisible();
  await expect(b.locator('.search-row', { hasText: `@${alice.username}` })).toHaveCount(0);
  await searchBox(b).press('Escape');
  await b.goto(`/profile/${alice.username}`);
  await expect(b.getByRole('heading', { name: 'Member not found' })).toBeVisible();
  await expect(moreButton(b, alice.username)).toHaveCount(0);

  await a.context().close();
  await b.context().close();
});

test('a member reports another’s photo from the viewer ⋯ once; the menu then says Reported', async ({
  browser,
  memberPage: a,
  otherMember: bob,
  baseURL,
}) => {
  // Bob's photo; his own viewer offers no Report.
  const b = await signedIn(browser, bob);
  await addPhotos(b, baseURL ?? '', 1);
  await b.reload();
  await b.getByRole('list', { name: 'Photos' }).locator('.photo-open').first().click();
  await viewer(b).getByRole('button', { name: 'Image actions' }).click();
  await expect(viewer(b).getByRole('menuitem', { name: 'Share link' })).toBeVisible();
  await expect(viewer(b).getByRole('menuitem', { name: 'Report' })).toHaveCount(0);
  await b.context().close();

  await a.goto(`/profile/${bob.username}`);
  await a.getByRole('list', { name: 'Photos' }).locator('.photo-open').first().click();
  const actions = viewer(a).getByRole('button', { name: 'Image actions' });
  await actions.click();
  await viewer(a).getByRole('menuitem', { name: 'Report' }).click();
  const dialog = a.getByRole('dialog', { name: 'Report photo' });
  await expect(dialog).toBeVisible();
  await chooseReason(dialog, 'Spam');
  const note = dialog.getByLabel('Add a note (optional)');
  await note.fill('The same picture on every profile, with a link to a shop.');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText(THANKS, { exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Send report' })).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  // Focus is back in the viewer, on its ⋯.
  await expect(viewer(a)).toBeVisible();
  await expect(actions).toBeFocused();

  // The same photo again: `Reported` up front, which opens nothing.
  await actions.click();
  const reported = viewer(a).getByRole('menuitem', { name: 'Reported' });
  await expect(reported).toHaveAttribute('aria-disabled', 'true');
  await expect(reported).toHaveAttribute('title', 'You have already reported this.');
  await expect(viewer(a).getByRole('menuitem', { name: 'Report', exact: true })).toHaveCount(0);
  await reported.focus();
  await a.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await a.keyboard.press('Escape');
  // The server says so to a page opened afresh too.
  await a.reload();
  await expect(viewer(a)).toBeVisible();
  await viewer(a).getByRole('button', { name: 'Image actions' }).click();
  await expect(viewer(a).getByRole('menuitem', { name: 'Reported' })).toBeVisible();
});

test('a member reports another member from the profile ⋯', async ({
  memberPage: a,
  otherMember: bob,
}) => {
  await a.goto(`/profile/${bob.username}`);
  const more = moreButton(a, bob.username);
  await more.click();
  await a
    .getByRole('menu', { name: `More actions for @${bob.username}` })
    .getByRole('menuitem', { name: 'Report' })
    .click();
  const dialog = a.getByRole('dialog', { name: `Report @${bob.username}` });
  await expect(dialog).toBeVisible();

  // Nothing is sent without a reason; the note counts down near its 500 characters.
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Pick a reason.');
  await expect(dialog.getByRole('radio', { name: 'Spam' })).toBeFocused();
  await expectFocusTrapped(a, dialog);
  await chooseReason(dialog, 'Impersonation');
  const note = dialog.getByLabel('Add a note (optional)');
  await note.fill('Uses my name and my photos. '.repeat(16));
  await expect(dialog.getByTestId('char-count')).toHaveText('52 characters left');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByText(THANKS, { exact: true })).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expect(more).toBeFocused();

  // Reported, not blocked: the profile is still there, and its ⋯ says Reported.
  await a.reload();
  await expect(a.getByRole('heading', { name: `@${bob.username}` })).toBeVisible();
  await more.click();
  await expect(
    a.getByRole('menu', { name: `More actions for @${bob.username}` }).getByRole('menuitem'),
  ).toHaveText([`Block @${bob.username}`, 'Reported']);
});

test('a report about a member who blocks the reporter meanwhile shows the server’s refusal', async ({
  browser,
  member: alice,
  otherMember: bob,
  baseURL,
}) => {
  const a = await signedIn(browser, alice, { path: `/profile/${bob.username}` });
  await moreButton(a, bob.username).click();
  await a.getByRole('menuitem', { name: 'Report' }).click();
  const dialog = a.getByRole('dialog', { name: `Report @${bob.username}` });
  await chooseReason(dialog, 'Spam');

  // Bob blocks Alice while her dialog is open.
  const b = await signedIn(browser, bob);
  const blocked = await b.request.get(`/api/users/profile/${encodeURIComponent(alice.username)}`);
  const { user } = (await blocked.json()) as { user: { id: string } };
  const answer = await b.request.post('/api/users/blocks', {
    headers: { Origin: baseURL ?? '' },
    data: { userId: user.id },
  });
  expect(answer.ok()).toBe(true);
  await b.context().close();

  // Hers is refused as if Bob were not there.
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('No such member.');
  await a.context().close();
});

test('after a block, the blocked member’s saved copy of the blocker’s profile does not come back offline', async ({
  browser,
  memberApi: alice,
  otherMemberApi: bob,
}) => {
  // Bob, with the service worker keeping his copies, visits Alice's profile.
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const b = await controlledPage(context, bob);
  await b.goto(`/profile/${alice.username}`);
  await expect(b.getByRole('heading', { name: `@${alice.username}` })).toBeVisible();

  // Alice blocks Bob; his next visit online finds nobody.
  const blocked = await alice.request.post('/api/users/blocks', { data: { userId: bob.id } });
  expect(blocked.ok()).toBe(true);
  await b.reload();
  await expect(b.getByRole('heading', { name: 'Member not found' })).toBeVisible();

  // Offline, the copy from before the block is gone with it.
  await context.setOffline(true);
  await b.reload();
  await expect(b.getByText(OFFLINE_BANNER)).toBeVisible();
  await expect(b.getByRole('heading', { name: 'Could not load this profile' })).toBeVisible();
  await expect(b.getByRole('heading', { name: `@${alice.username}` })).toHaveCount(0);
  await context.close();
});
