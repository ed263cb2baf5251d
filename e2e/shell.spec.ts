import { expect, test } from '@playwright/test';
import { createMember, logIn } from './helpers.ts';
import { createOrdinaryMember } from './moderators.ts';

test.describe('the shell', () => {
  test.beforeEach(async ({ page, request, baseURL }) => {
    // No moderator, whose menu has Reports too, whichever spec signed up first.
    const member = await createOrdinaryMember(request, baseURL ?? '');
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
  });

  test('the top bar holds the logo, search, theme toggle, bell, member and menu at 92 px', async ({
    page,
  }) => {
    const bar = page.locator('header.top-bar');
    await expect(bar).toBeVisible();
    expect((await bar.boundingBox())?.height).toBe(92);
    await expect(page.getByPlaceholder('Search Orbit users...')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Theme:/ })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Notifications' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  });

  test('the menu leaves out the current page, ends with Logout and closes on an outside click', async ({
    page,
  }) => {
    await page.goto('/store');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Pages' });
    await expect(menu.getByRole('link')).toHaveText([
      'SpaceHub',
      'Profile',
      'Settings',
      'Events',
      'Blog',
      'Podcast',
      'CreatorsHub',
    ]);
    await expect(menu.getByRole('listitem').last()).toHaveText('Logout');
    await page.locator('main').click({ position: { x: 10, y: 200 } });
    await expect(menu).toBeHidden();
  });

  test('Escape closes the menu and returns focus to its button', async ({ page }) => {
    const button = page.getByRole('button', { name: 'Menu' });
    await button.click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('navigation', { name: 'Pages' })).toBeHidden();
    await expect(button).toBeFocused();
  });

  test('the placeholder pages show their texts', async ({ page }) => {
    for (const path of ['/store', '/events', '/blog', '/podcast', '/creatorshub', '/creators']) {
      await page.goto(path);
      await expect(page.getByText('Development in Progress', { exact: true })).toBeVisible();
    }
    await page.goto('/');
    await expect(page).toHaveURL(/\/spacehub$/);
    await expect(page.getByText('Space Hub – Development in Progress')).toBeVisible();
  });

  test('an unknown path inside the app goes to spacehub', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/spacehub$/);
  });

  test('/profile goes to the member’s own profile', async ({ page }) => {
    const own = page.url();
    await page.goto('/profile');
    await expect(page).toHaveURL(own);
  });

  test('an unknown member shows a clear not-found state', async ({ page }) => {
    await page.goto('/profile/nobody-here-at-all');
    await expect(page.getByRole('heading', { name: 'Member not found' })).toBeVisible();
  });

  test('the theme toggle cycles light → normal1 → dark and survives a reload', async ({ page }) => {
    const html = page.locator('html');
    const toggle = page.getByRole('button', { name: /^Theme:/ });
    await expect(html).toHaveAttribute('data-theme', 'normal1');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'normal1');
    const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/theme'));
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');
  });
});

test.describe('logging out', () => {
  test('logging out in one tab signs out every open tab', async ({ context, request, baseURL }) => {
    const member = await createMember(request, baseURL ?? '');
    const first = await context.newPage();
    await logIn(first, member);
    await expect(first).toHaveURL(/\/profile\//);
    const second = await context.newPage();
    await second.goto('/settings');
    await expect(second.getByRole('heading', { name: 'Settings' })).toBeVisible();

    await first.getByRole('button', { name: 'Menu' }).click();
    await first.getByRole('button', { name: 'Logout' }).click();
    await expect(first).toHaveURL(/\/landing$/);
    await expect(second).toHaveURL(/\/landing$/);

    await second.reload();
    await expect(second).toHaveURL(/\/landing$/);
    const me = await second.request.get('/api/auth/me');
    expect({ status: me.status(), body: (await me.json()) as unknown }).toEqual({
      status: 200,
      body: { user: null },
    });
  });
});
