import { type Page, expect } from '@playwright/test';
import {
  PASSWORD,
  avatarPng,
  createMember,
  logIn,
  sessionCookie,
  test,
  uniqueName,
} from './helpers.ts';

/** Presses Create Account and expects each of `messages` on the form. */
async function createAccountAndExpect(page: Page, messages: readonly string[]) {
  await page.getByRole('button', { name: 'Create Account' }).click();
  for (const message of messages) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
}

test.describe('signing up', () => {
  test('a new member signs up with a profile image and lands on their profile, still there after reload', async ({
    page,
  }) => {
    const username = uniqueName('new');
    await page.goto('/');
    await expect(page).toHaveURL(/\/landing$/);
    await expect(page.getByText('Where connection meets cosmos', { exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Sign Up' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();

    await page.getByLabel('Username', { exact: true }).fill(username);
    await expect(page.getByTestId('username-availability')).toHaveText('Available');
    await page.getByLabel('Email').fill(`${username}@orbit.example`);
    await page.getByLabel('Birthday').fill('1994-03-21');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Profile image').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: await avatarPng(),
    });
    await page.getByLabel('Science').check();
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(new RegExp(`/profile/${username}$`));
    await expect(page.getByRole('heading', { name: `@${username}` })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: `@${username}` })).toBeVisible();
    await expect(page.locator('.top-bar-username')).toHaveText(username);
  });

  test('the signup form shows the spec messages for missing and wrong fields', async ({ page }) => {
    await page.goto('/signup');
    await createAccountAndExpect(page, [
      'Username required',
      'Email required',
      'Birthday required',
      'Profile image required',
    ]);
    await expect(page.getByText('Required', { exact: true })).toHaveCount(2);

    await page.getByLabel('Username', { exact: true }).fill('ab');
    await page.getByLabel('Password', { exact: true }).fill('weak');
    await page.getByLabel('Confirm password', { exact: true }).fill('other');
    await page.getByLabel('Birthday').fill('2015-01-01');
    await createAccountAndExpect(page, [
      'Min 3 chars',
      'Password requirements not met',
      'Does not match',
      '18+ only',
    ]);
  });

  test('a taken username reads Not available and cannot be submitted', async ({
    page,
    member: taken,
  }) => {
    await page.goto('/signup');
    await page.getByLabel('Username', { exact: true }).fill(taken.username.toUpperCase());
    await expect(page.getByTestId('username-availability')).toHaveText('Not available');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Not available', { exact: true }).first()).toBeVisible();
  });

  test('a username that breaks the rule shows the rule, is never checked and never reads Not available', async ({
    page,
  }) => {
    // Every name the server is asked about reads as taken: a check of ab! would show Not available.
    const asked: string[] = [];
    await page.route('**/api/check-username**', async (route) => {
      asked.push(new URL(route.request().url()).searchParams.get('username') ?? '');
      await route.fulfill({ json: { available: false } });
    });
    await page.clock.install();
    await page.goto('/signup');
    const username = page.getByLabel('Username', { exact: true });
    const rule = '3–20 chars: letters, numbers, . _ -';
    await username.fill('ab!');
    await expect(page.getByText(rule, { exact: true })).toBeVisible();
    await expect(username).toHaveAccessibleDescription(rule);
    // Well past the pause after which a check would have been sent.
    await page.clock.runFor(2_000);
    await expect(page.getByTestId('username-availability')).toHaveText('');

    // A good name is checked; by the time its answer shows, any earlier check would have been sent.
    await username.fill('nova1');
    await page.clock.runFor(2_000);
    await expect(page.getByTestId('username-availability')).toHaveText('Not available');
    await expect(page.getByText(rule, { exact: true })).toHaveCount(0);
    expect(asked).toEqual(['nova1']);

    await username.fill('ab!');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText(rule, { exact: true })).toBeVisible();
    await expect(page.getByText('Not available', { exact: true })).toHaveCount(0);
  });

  test('a name field shows the characters left near its limit and stops at it', async ({
    page,
  }) => {
    await page.goto('/signup');
    const first = page.getByLabel('First name');
    await first.fill('a'.repeat(39));
    await expect(page.getByTestId('char-count')).toHaveCount(0);
    await first.fill('a'.repeat(40));
    await expect(page.getByTestId('char-count')).toHaveText('10 characters left');
    await expect(first).toHaveAccessibleDescription('10 characters left');
    await first.pressSequentially('bcdefghijklmno');
    await expect(first).toHaveValue(`${'a'.repeat(40)}bcdefghijk`);
    await expect(page.getByTestId('char-count')).toHaveText('0 characters left');
    // Screen readers hear it once typing pauses, from a polite live region.
    await expect(
      page.locator('[aria-live="polite"]', { hasText: '0 characters left' }),
    ).toHaveCount(1);
  });

  test('Cancel goes back to the start', async ({ page }) => {
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(/\/landing$/);
  });

  test('the server error shows under the form', async ({ page, request, baseURL }) => {
    const taken = await createMember(request, baseURL ?? '');
    await page.route('**/api/check-username**', (route) => route.abort());
    await page.goto('/signup');
    await page.getByLabel('Username', { exact: true }).fill(uniqueName());
    await page.getByLabel('Email').fill(taken.email);
    await page.getByLabel('Birthday').fill('1990-01-01');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page
      .getByLabel('Profile image')
      .setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: await avatarPng() });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert')).toHaveText('Email already in use');
  });
});

test.describe('logging in', () => {
  test('empty fields show the required message', async ({ page }) => {
    await page.goto('/landing');
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page.getByRole('alert')).toHaveText('Username/email and password are required.');
  });

  test("a wrong password shows the server's message", async ({ page, request, baseURL }) => {
    const member = await createMember(request, baseURL ?? '');
    await logIn(page, { ...member, password: 'Wrong-pass1!' });
    await expect(page.getByRole('alert')).toHaveText('Wrong username/email or password.');
  });

  test('a failure without a message shows the status', async ({ page }) => {
    await page.route('**/api/auth/login', (route) => route.fulfill({ status: 502, body: '' }));
    await logIn(page, { username: 'someone', email: '', password: 'x' });
    await expect(page.getByRole('alert')).toHaveText('Login failed (502)');
  });

  test('an unreachable server shows Login failed.', async ({ page }) => {
    await page.route('**/api/auth/login', (route) => route.abort());
    await logIn(page, { username: 'someone', email: '', password: 'x' });
    await expect(page.getByRole('alert')).toHaveText('Login failed.');
  });

  test('the button reads Logging in... while the call runs', async ({ page, request, baseURL }) => {
    const member = await createMember(request, baseURL ?? '');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/login', async (route) => {
      await held;
      await route.continue();
    });
    await logIn(page, member);
    await expect(page.getByRole('button', { name: 'Logging in...' })).toBeDisabled();
    release();
    await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
  });

  test('Show reveals the password and Hide masks it again', async ({ page }) => {
    await page.goto('/landing');
    const field = page.getByLabel('Password', { exact: true });
    await field.fill('secret');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(field).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(field).toHaveAttribute('type', 'password');
  });

  test('Remember me keeps a 30-day cookie; without it the cookie ends with the browser session', async ({
    browser,
    request,
    baseURL,
  }) => {
    const member = await createMember(request, baseURL ?? '');
    const remembered = await browser.newContext();
    const page = await remembered.newPage();
    await logIn(page, member, { remember: true });
    await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
    const longCookie = await sessionCookie(remembered);
    const days = ((longCookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(longCookie?.httpOnly).toBe(true);
    await remembered.close();

    const plain = await browser.newContext();
    const other = await plain.newPage();
    await logIn(other, member);
    await expect(other).toHaveURL(new RegExp(`/profile/${member.username}$`));
    expect((await sessionCookie(plain))?.expires).toBe(-1);
    await plain.close();
  });

  test('a signed-in member visiting the login page goes to spacehub', async ({
    page,
    request,
    baseURL,
  }) => {
    const member = await createMember(request, baseURL ?? '');
    await logIn(page, member);
    await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
    await page.goto('/landing');
    await expect(page).toHaveURL(/\/spacehub$/);
    await expect(
      page.getByRole('heading', { name: 'Space Hub – Development in Progress' }),
    ).toBeVisible();
  });
});

test.describe('the sign-in guard', () => {
  test('sends a signed-out visitor to the landing page and back to where they were going after login', async ({
    page,
    member,
  }) => {
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/landing$/);
    await page.getByLabel('Username or email').fill(member.email.toUpperCase());
    await page.getByLabel('Password', { exact: true }).fill(member.password);
    await page.getByRole('button', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/settings$/);
  });

  test('shows Authorizing… while the session loads', async ({ page }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/store');
    await expect(page.getByText('Authorizing…')).toBeVisible();
    release();
    await expect(page).toHaveURL(/\/landing$/);
  });
});
