import { readFile } from 'node:fs/promises';
import { type Page, expect } from '@playwright/test';
import { DEFAULT_AVATAR } from '../src/contracts/constants.ts';
import { EXPORT_TOO_SOON } from '../src/contracts/safety.ts';
import { unzip } from '../server/test/unzip.ts';
import { PASSWORD, addPhotos, avatarPng, test } from './helpers.ts';
import { storedData } from './pwa-helpers.ts';

test.use({ memberPath: '/settings' });

const section = (page: Page, name: string) => page.getByRole('region', { name });
const toast = (page: Page) => page.locator('.toast-region');

async function memberId(page: Page, username: string): Promise<string> {
  const response = await page.request.get(`/api/users/profile/${username}`);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { user: { id: string } }).user.id;
}

test.describe('leaving: delete my account', () => {
  test('the username must match, a wrong password is said, then every tab is signed out and the username is free', async ({
    member: alice,
    memberPage: page,
    request,
    baseURL,
  }) => {
    const id = await memberId(page, alice.username);
    const otherTab = await page.context().newPage();
    await otherTab.goto('/spacehub');
    await expect(otherTab.locator('.top-bar-username')).toHaveText(alice.username);
    await expect.poll(() => storedData(otherTab)).toContain(id);

    await section(page, 'Danger zone').getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(
      dialog.getByText(
        'This removes your profile, photos, friends, notifications and everything else you own. It can’t be undone.',
        { exact: true },
      ),
    ).toBeVisible();
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel('Password', { exact: true }).fill('Wrong-pass1!');
    const typed = dialog.getByLabel('Type your username to confirm');
    await typed.fill(alice.username.slice(0, -1));
    await expect(confirm).toBeDisabled();
    await typed.fill(alice.username);
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(
      dialog.getByText('Your current password is not correct.', { exact: true }),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/settings$/);

    await dialog.getByLabel('Password', { exact: true }).fill(alice.password);
    await confirm.click();
    await expect(page).toHaveURL(/\/landing$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Your account has been deleted.' }),
    ).toBeVisible();

    // The other tab is signed out too, and the offline copies are gone.
    await expect(otherTab).toHaveURL(/\/landing$/);
    await expect(otherTab.getByRole('button', { name: 'Login' })).toBeVisible();
    await expect.poll(() => storedData(otherTab)).not.toContain(id);
    expect((await page.request.get('/api/auth/me')).ok()).toBe(true);
    expect(
      ((await (await page.request.get('/api/auth/me')).json()) as { user: unknown }).user,
    ).toBeNull();

    // The old credentials no longer work, and the username can be taken again.
    await page.getByLabel('Username or email').fill(alice.username);
    await page.getByLabel('Password', { exact: true }).fill(alice.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Wrong username/email or password.');

    const again = await request.post('/api/auth/signup', {
      headers: { Origin: baseURL ?? '' },
      multipart: {
        username: alice.username,
        email: alice.email,
        password: PASSWORD,
        birthday: '1991-07-14',
        profilePic: { name: 'me.png', mimeType: 'image/png', buffer: await avatarPng() },
      },
    });
    expect(again.status()).toBe(201);
  });
});

test.describe('leaving: download my data', () => {
  test('gives orbit-{username}.zip with the profile, and a second one within 10 minutes is refused', async ({
    member: alice,
    memberPage: page,
    baseURL,
  }) => {
    await addPhotos(page, baseURL ?? '', 1);
    const data = section(page, 'Download my data');
    const link = data.getByRole('link', { name: 'Download my data' });
    const downloading = page.waitForEvent('download');
    await link.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`orbit-${alice.username}.zip`);
    const path = await download.path();
    const bytes = await readFile(path);
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    const entries = unzip(bytes);
    const names = entries.map((entry) => entry.name);
    expect(names).toContain('README.txt');
    const profile = entries.find((entry) => entry.name === 'profile.json');
    expect(JSON.parse(profile?.data.toString('utf8') ?? '{}')).toMatchObject({
      member: { username: alice.username, email: alice.email },
    });
    expect(names.some((name) => /\.(webp|jpe?g|png)$/.test(name) && name !== 'avatar.webp')).toBe(
      true,
    );

    // Again at once: the page says so, and no second file arrives.
    let more = 0;
    page.on('download', () => (more += 1));
    await link.click();
    await expect(data.getByRole('alert')).toHaveText(EXPORT_TOO_SOON);
    // The server holds the same rule for a download started anywhere else.
    const refused = await page.request.get('/api/auth/export');
    expect(refused.status()).toBe(429);
    expect(await refused.json()).toMatchObject({ error: EXPORT_TOO_SOON });
    expect(Number(refused.headers()['retry-after'])).toBeGreaterThan(0);
    expect(more).toBe(0);
  });
});

test.describe('leaving: blocked members', () => {
  test('Settings lists a member one blocked by the name they had then, and Unblock removes the row with a toast', async ({
    memberPage: page,
    otherMember: bob,
    baseURL,
    playwright,
  }) => {
    const blocked = section(page, 'Blocked members');
    await expect(blocked.getByText('You haven’t blocked anyone.', { exact: true })).toBeVisible();

    const bobId = await memberId(page, bob.username);
    const block = await page.request.post('/api/users/blocks', {
      headers: { Origin: baseURL ?? '' },
      data: { userId: bobId },
    });
    expect(block.ok()).toBe(true);
    // Bob renames once blocked: the list keeps the name he was blocked by.
    const bobs = await playwright.request.newContext({ baseURL: baseURL ?? '' });
    const login = await bobs.post('/api/auth/login', {
      headers: { Origin: baseURL ?? '' },
      data: { identifier: bob.username, password: bob.password },
    });
    expect(login.ok()).toBe(true);
    const renamed = await bobs.patch('/api/auth/profile', {
      headers: { Origin: baseURL ?? '' },
      data: { username: `${bob.username.slice(0, 15)}_new` },
    });
    expect(renamed.ok()).toBe(true);
    await bobs.dispose();
    await page.reload();

    const row = blocked.getByRole('listitem');
    await expect(row).toHaveCount(1);
    await expect(row).toHaveText(`@${bob.username}Unblock`);
    await expect(row.locator('img.avatar')).toHaveAttribute('src', DEFAULT_AVATAR);
    await expect(row.locator('img.avatar')).toBeVisible();
    await row.getByRole('button', { name: 'Unblock' }).click();
    await expect(toast(page)).toHaveText(`Unblocked @${bob.username}`);
    await expect(row).toHaveCount(0);
    await expect(blocked.getByText('You haven’t blocked anyone.', { exact: true })).toBeVisible();
    const left = await page.request.get('/api/users/blocks');
    expect(await left.json()).toEqual({ users: [] });
  });
});
