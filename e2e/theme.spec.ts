import { expect } from '@playwright/test';
import { test } from './helpers.ts';

test.use({ memberPath: '/spacehub' });

test('a theme change in one tab applies in the other at once, and the server wins at focus', async ({
  memberPage: first,
  baseURL,
}) => {
  const second = await first.context().newPage();
  await second.goto('/spacehub');
  const themeOf = (page: typeof first) => page.locator('html');
  await expect(themeOf(second)).toHaveAttribute('data-theme', 'normal1');

  // Cosmos → Dark in the first tab: the second follows without a reload.
  await first.getByRole('button', { name: /^Theme:/ }).click();
  await expect(themeOf(first)).toHaveAttribute('data-theme', 'dark');
  await expect(themeOf(second)).toHaveAttribute('data-theme', 'dark');
  // Toggling in the second tab starts from the theme it was told, not its stale one.
  await second.getByRole('button', { name: /^Theme:/ }).click();
  await expect(themeOf(second)).toHaveAttribute('data-theme', 'light');
  await expect(themeOf(first)).toHaveAttribute('data-theme', 'light');
  await expect
    .poll(async () => {
      const me = await first.request.get('/api/auth/me');
      return ((await me.json()) as { user: { theme: string } }).user.theme;
    })
    .toBe('light');

  // Saved elsewhere (another browser): the tab takes the server's theme when it gets focus.
  const saved = await first.request.put('/api/users/theme', {
    headers: { Origin: baseURL ?? '' },
    data: { theme: 'normal2' },
  });
  expect(saved.ok()).toBe(true);
  await expect(themeOf(first)).toHaveAttribute('data-theme', 'light');
  await first.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
  await expect(themeOf(first)).toHaveAttribute('data-theme', 'normal2');
  await expect(first.getByRole('button', { name: /^Theme:/ })).toHaveAttribute(
    'data-theme-current',
    'normal2',
  );
});

test('a theme chosen offline is kept and saved once back, not undone by the server’s', async ({
  memberPage: page,
  context,
}) => {
  const theme = page.locator('html');
  await expect(theme).toHaveAttribute('data-theme', 'normal1');
  await context.setOffline(true);
  await page.getByRole('button', { name: /^Theme:/ }).click();
  await expect(theme).toHaveAttribute('data-theme', 'dark');
  // Focus while still offline, then again online: the choice stays and reaches the server.
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new FocusEvent('focus')));
  await expect
    .poll(async () => {
      const me = await page.request.get('/api/auth/me');
      return ((await me.json()) as { user: { theme: string } }).user.theme;
    })
    .toBe('dark');
  await expect(theme).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(theme).toHaveAttribute('data-theme', 'dark');
});
