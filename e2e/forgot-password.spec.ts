import { expect, test } from '@playwright/test';
import { createMember, logIn } from './helpers.ts';

test('a member resets a forgotten password through their security question', async ({
  page,
  request,
  baseURL,
}) => {
  const member = await createMember(request, baseURL ?? '', {
    securityQuestion: 'First telescope?',
    securityAnswer: 'Celestron  Astromaster',
  });
  await page.goto('/landing');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Username or email').fill(member.username);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('First telescope?')).toBeVisible();

  await page.getByLabel('Answer').fill('wrong scope');
  await page.getByLabel('New password', { exact: true }).fill('N3w-Horizon!');
  await page.getByLabel('Confirm new password', { exact: true }).fill('N3w-Horizon!');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText('That answer does not match.');

  await page.getByLabel('Answer').fill('  celestron astromaster ');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page).toHaveURL(/\/landing$/);
  await expect(page.getByText('Password reset. Please log in.')).toBeVisible();

  await logIn(page, member);
  await expect(page.getByRole('alert')).toHaveText('Wrong username/email or password.');
  await logIn(page, { ...member, password: 'N3w-Horizon!' });
  await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
});

test('an account without a security question says so', async ({ page, request, baseURL }) => {
  const member = await createMember(request, baseURL ?? '');
  await page.goto('/forgot-password');
  await page.getByLabel('Username or email').fill(member.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText('This account has no security question.');
});
