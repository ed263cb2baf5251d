import { expect, test } from '@playwright/test';

test('the server answers its health check', async ({ request }) => {
  const response = await request.get('/healthz');
  expect(response.status()).toBe(200);
  expect(await response.json()).toMatchObject({ status: 'ok' });
});

test('the app opens with Orbit in the page title', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Orbit/);
});
