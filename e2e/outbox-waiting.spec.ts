/**
 * What waits in the offline outbox, as the member meets it (docs/product.md "Offline, install and
 * push"): the top bar's count, Settings → Waiting to send with Discard, and the logout prompt.
 */
import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';
import { imageIds, listeningPage, results, write } from './outbox-helpers.ts';
import { type Api, storedData, test, uploadPhotos } from './pwa-helpers.ts';

test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 90_000 });

interface Photo {
  id: string;
  caption?: string;
  likes?: string[];
}

async function photos(api: Api): Promise<Photo[]> {
  const response = await api.request.get(`/api/gallery?userId=${api.id}`);
  return ((await response.json()) as { images: Photo[] }).images;
}

/** WCAG 2.1 A and AA violations axe-core finds in the parts of the page named by `selectors`. */
async function violations(page: Page, ...selectors: string[]) {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  for (const selector of selectors) builder = builder.include(selector);
  return (await builder.analyze()).violations.map((violation) => violation.id);
}

const count = (page: Page) => page.getByRole('link', { name: /waiting to send$/ });

/** The workbox queue's entries on this device, of anyone (its one IndexedDB store). */
const queuedEntries = async (page: Page) =>
  /workbox-background-sync\/requests: \[\]/.test(await storedData(page)) ? 0 : 'some';

test('logout with changes waiting asks; Cancel keeps the member in, Log out discards them', async ({
  browser,
  memberApi: member,
}) => {
  await uploadPhotos(member, 1);
  const [photo] = await imageIds(member);
  const { context, page } = await listeningPage(browser, member);

  await context.setOffline(true);
  expect(await write(page, 'PATCH', `/api/gallery/${photo}`, { likes: true }, 'k1')).toBe(202);
  expect(await write(page, 'PATCH', `/api/gallery/${photo}`, { caption: 'Gone' }, 'k2')).toBe(202);
  await expect(count(page)).toHaveAccessibleName('2 changes waiting to send');

  const menu = page.getByRole('button', { name: 'Menu' });
  await menu.click();
  await page.getByRole('button', { name: 'Logout' }).click();
  const prompt = page.getByRole('dialog', {
    name: '2 changes haven’t been sent. Log out and discard them?',
  });
  await expect(prompt).toBeVisible();
  expect(await violations(page, 'dialog[open]')).toEqual([]);
  // Focus starts on Cancel, the choice that loses nothing.
  await expect(prompt.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(prompt).toBeHidden();
  await expect(menu).toBeFocused();
  await expect(count(page)).toHaveAccessibleName('2 changes waiting to send');
  await expect(page).toHaveURL(`/profile/${member.username}`);

  await menu.click();
  await page.getByRole('button', { name: 'Logout' }).click();
  await prompt.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByLabel('Username or email')).toBeVisible();
  await expect.poll(() => queuedEntries(page)).toBe(0);

  // Back online and signed in again: nothing was sent, and nothing is left to send.
  await context.setOffline(false);
  await page.getByLabel('Username or email').fill(member.username);
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await page.waitForTimeout(1_000);
  expect(await results(page)).toEqual([]);
  await expect(count(page)).toHaveCount(0);
  const [after] = await photos(member);
  expect(after?.likes ?? []).not.toContain(member.id);
  expect(after?.caption ?? '').not.toBe('Gone');
  await context.close();
});

test('Settings lists what waits; a discarded change is never sent, the other is', async ({
  browser,
  memberApi: member,
}) => {
  await uploadPhotos(member, 2);
  const [first, second] = await imageIds(member);
  const { context, page } = await listeningPage(browser, member);

  await context.setOffline(true);
  expect(await write(page, 'PATCH', `/api/gallery/${first}`, { likes: true }, 'k1')).toBe(202);
  expect(
    await write(page, 'PATCH', `/api/gallery/${second}`, { caption: 'Sea at dusk' }, 'k2'),
  ).toBe(202);

  // The top bar's count leads to the section.
  await count(page).click();
  await expect(page).toHaveURL('/settings#settings-outbox');
  const section = page.getByRole('region', { name: 'Waiting to send' });
  await expect(section.getByRole('heading', { name: 'Waiting to send' })).toBeFocused();
  await expect(section.locator('.settings-outbox-text')).toHaveText([
    'Like a photo',
    'Caption: “Sea at dusk”',
  ]);
  expect(await violations(page, '.top-bar', '#settings-outbox')).toEqual([]);
  await section.getByRole('button', { name: 'Discard: Like a photo' }).click();
  await expect(section.locator('.settings-outbox-text')).toHaveText(['Caption: “Sea at dusk”']);
  await expect(count(page)).toHaveAccessibleName('1 change waiting to send');

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect
    .poll(() => results(page), { timeout: 15_000 })
    .toEqual([{ type: 'outbox', key: 'k2', result: 'sent' }]);
  await expect(section.getByText('Nothing is waiting to send.')).toBeVisible();
  const shown = await photos(member);
  expect(shown.find((photo) => photo.id === first)?.likes ?? []).not.toContain(member.id);
  expect(shown.find((photo) => photo.id === second)?.caption).toBe('Sea at dusk');
  await context.close();
});

test('the top bar counts what waits offline, and the count goes once it is sent', async ({
  browser,
  memberApi: member,
}) => {
  await uploadPhotos(member, 1);
  const [photo] = await imageIds(member);
  const { context, page } = await listeningPage(browser, member);
  await expect(count(page)).toHaveCount(0);

  await context.setOffline(true);
  expect(await write(page, 'PATCH', `/api/gallery/${photo}`, { likes: true }, 'k1')).toBe(202);
  await expect(count(page)).toHaveAccessibleName('1 change waiting to send');
  // It stays through a reload offline.
  await page.reload();
  await expect(count(page)).toHaveAccessibleName('1 change waiting to send');

  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect(count(page)).toHaveCount(0, { timeout: 15_000 });
  expect((await photos(member))[0]?.likes).toContain(member.id);
  await context.close();
});
