import { type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { SETTINGS_INTERESTS } from '../src/contracts/interests.ts';
import { expectRoundAvatars } from './avatars.ts';
import { SETTINGS_NAV, createMember, logIn, signedIn, test, uniqueName } from './helpers.ts';

const NEW_PASSWORD = 'N3w$ecret!pass';
const AT_SETTINGS = { path: '/settings' };
test.use({ memberPath: AT_SETTINGS.path });

const section = (page: Page, name: string) => page.getByRole('region', { name });
const basicInfo = (page: Page) => section(page, 'Step 1 Basic Info');
const security = (page: Page) => section(page, 'Step 2 Security');
const profile = (page: Page) => section(page, 'Step 3 Profile');
const referral = (page: Page) => section(page, 'Step 4 Referral');
const toast = (page: Page) => page.locator('.toast-region');

test.describe('settings: Basic Info', () => {
  test('a taken username reads Taken ✕ and is refused; a free one is saved and shows in the header and another tab', async ({
    member: alice,
    memberPage: page,
    otherMember: bob,
  }) => {
    const otherTab = await page.context().newPage();
    await otherTab.goto('/spacehub');
    await expect(otherTab.locator('.top-bar-username')).toHaveText(alice.username);

    const basic = basicInfo(page);
    await basic.getByRole('button', { name: 'Edit' }).click();
    await expect(basic.getByLabel('First name')).toBeFocused();
    const username = basic.getByLabel('Username');
    await expect(basic.getByTestId('username-availability')).toHaveText('Current username');
    await username.fill(alice.username.toUpperCase());
    await expect(basic.getByTestId('username-availability')).toHaveText('Current username');

    await username.fill(bob.username.toUpperCase());
    await expect(basic.getByTestId('username-availability')).toHaveText('Taken ✕');
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(basic.getByText('Username not available.', { exact: true })).toBeVisible();
    await expect(basic.getByRole('button', { name: 'Save' })).toBeVisible();

    // A name that breaks the rule shows the rule as it is typed, and no availability at all.
    await username.fill('ab!');
    await expect(
      basic.getByText('3–20 chars: letters, numbers, . _ -', { exact: true }),
    ).toBeVisible();
    await expect(basic.getByTestId('username-availability')).toHaveText('');
    await username.fill('bad name!');
    await expect(basic.getByTestId('username-availability')).toHaveText('');
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(
      basic.getByText('3–20 chars: letters, numbers, . _ -', { exact: true }),
    ).toBeVisible();
    await expect(username).toBeFocused();

    const fresh = uniqueName('new');
    await username.fill(fresh);
    await expect(basic.getByTestId('username-availability')).toHaveText('Available ✓');
    await basic.getByLabel('First name').fill('Alice');
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Basic info saved.');
    await expect(basic.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(page.locator('.top-bar-username')).toHaveText(fresh);
    // The other tab learns it over the orbit:auth channel, with no reload.
    await expect(otherTab.locator('.top-bar-username')).toHaveText(fresh);

    await page.reload();
    await expect(basicInfo(page).getByLabel('Username')).toHaveValue(fresh);
    await expect(basicInfo(page).getByLabel('First name')).toHaveValue('Alice');
    await expect(basicInfo(page).getByLabel('Birthday')).toHaveValue('1991-07-14');
  });

  test('an email in use and a bad email are refused with the spec messages', async ({
    member,
    memberPage: page,
    otherMember: bob,
  }) => {
    const basic = basicInfo(page);
    await basic.getByRole('button', { name: 'Edit' }).click();
    const email = basic.getByLabel('Email');
    await email.fill('not-an-email');
    await basic.getByLabel('Current password', { exact: true }).fill(member.password);
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(basic.getByText('Enter a valid email address.', { exact: true })).toBeVisible();
    await expect(email).toBeFocused();

    await email.fill(bob.email.toUpperCase());
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(basic.getByText('Email already in use.', { exact: true })).toBeVisible();
    await expect(email).toBeFocused();
    // Said once, under the field: not repeated in a toast.
    await expect(page.getByText('Email already in use.', { exact: true })).toHaveCount(1);
    await expect(toast(page)).toHaveText('');
  });

  test('a new email needs the current password: without it or with a wrong one nothing is saved', async ({
    member,
    memberPage: page,
  }) => {
    const basic = basicInfo(page);
    await basic.getByRole('button', { name: 'Edit' }).click();
    const current = basic.getByLabel('Current password', { exact: true });
    await expect(current).toHaveCount(0);
    const fresh = `${uniqueName('mail')}@orbit.example`;
    await basic.getByLabel('Email').fill(fresh);
    await expect(current).toBeVisible();

    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(basic.getByText('Enter your current password.', { exact: true })).toBeVisible();
    await expect(current).toBeFocused();

    await current.fill('Not-the-password1!');
    await basic.getByRole('button', { name: 'Save' }).click();
    const wrong = 'Your current password is not correct.';
    await expect(basic.getByText(wrong, { exact: true })).toBeVisible();
    await expect(current).toBeFocused();
    await expect(page.getByText(wrong)).toHaveCount(1);
    const unchanged = await page.request.get('/api/auth/me');
    expect(((await unchanged.json()) as { user: { email: string } }).user.email).toBe(member.email);

    await current.fill(member.password);
    await basic.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Basic info saved.');
    await expect(current).toHaveCount(0);
    await page.reload();
    await expect(basicInfo(page).getByLabel('Email')).toHaveValue(fresh);
  });

  test('Undo Changes goes back to the values at Edit; Cancel leaves editing', async ({
    memberPageWith,
  }) => {
    const page = await memberPageWith({ firstName: 'Vega' });
    const basic = basicInfo(page);
    await basic.getByRole('button', { name: 'Edit' }).click();
    await expect(
      section(page, 'Step 2 Security').getByRole('button', { name: 'Edit' }),
    ).toBeDisabled();
    await basic.getByLabel('First name').fill('Altair');
    await basic.getByRole('button', { name: 'Undo Changes' }).click();
    await expect(basic.getByLabel('First name')).toHaveValue('Vega');
    await basic.getByLabel('First name').fill('Deneb');
    await basic.getByRole('button', { name: 'Cancel' }).click();
    await expect(basic.getByLabel('First name')).toHaveValue('Vega');
    await expect(basic.getByLabel('First name')).toBeDisabled();
    await expect(basic.getByRole('button', { name: 'Edit' })).toBeFocused();
  });
});

test.describe('settings: Security', () => {
  test('changing the password signs out the other session; the new password logs in', async ({
    browser,
    request,
    baseURL,
  }) => {
    // Three sign-ins and two password hashes on the server: more than the default 30 s allows
    // while another worker runs beside it.
    test.setTimeout(60_000);
    const member = await createMember(request, baseURL ?? '');
    const elsewhere = await signedIn(browser, member, { path: '/spacehub' });
    const page = await signedIn(browser, member, AT_SETTINGS);
    const sec = security(page);
    await sec.getByRole('button', { name: 'Edit' }).click();

    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(sec.getByText('Enter your current password.', { exact: true })).toBeVisible();
    await expect(sec.getByText('Enter a new password.', { exact: true })).toBeVisible();
    await sec.getByLabel('Current password', { exact: true }).fill(member.password);
    await sec.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await sec.getByLabel('Confirm new password', { exact: true }).fill('different');
    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(sec.getByText('Passwords do not match.', { exact: true })).toBeVisible();

    // The checklist is shown but not enforced here: the server answers with its rule.
    await sec.getByLabel('New password', { exact: true }).fill('weak');
    await sec.getByLabel('Confirm new password', { exact: true }).fill('weak');
    await expect(sec.getByRole('list', { name: 'Password requirements' })).toBeVisible();
    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(sec.getByText('Password requirements not met', { exact: true })).toBeVisible();
    await expect(sec.getByLabel('New password', { exact: true })).toBeFocused();

    await sec.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await sec.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Password changed.');
    await expect(sec.getByLabel('Current password', { exact: true })).toHaveValue('');

    await elsewhere.reload();
    await expect(elsewhere).toHaveURL(/\/landing$/);
    await page.reload();
    await expect(page).toHaveURL(/\/settings$/);

    const fresh = await browser.newContext();
    const login = await fresh.newPage();
    await logIn(login, { ...member, password: NEW_PASSWORD });
    await expect(login).toHaveURL(new RegExp(`/profile/${member.username}$`));
    await Promise.all([fresh.close(), elsewhere.context().close(), page.context().close()]);
  });

  test('a wrong current password is reported once, under the field, not also as a toast', async ({
    memberPage: page,
  }) => {
    const sec = security(page);
    await sec.getByRole('button', { name: 'Edit' }).click();
    const current = sec.getByLabel('Current password', { exact: true });
    await current.fill('Not-the-password1!');
    await sec.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await sec.getByLabel('Confirm new password', { exact: true }).fill(NEW_PASSWORD);
    await sec.getByRole('button', { name: 'Save' }).click();
    const message = 'Your current password is not correct.';
    await expect(sec.getByText(message, { exact: true })).toBeVisible();
    await expect(current).toBeFocused();
    await expect(current).toHaveAccessibleDescription(message);
    // Everything the failed save shows is on the page by now: the message is there exactly once.
    await expect(page.getByText(message)).toHaveCount(1);
    await expect(toast(page)).toHaveText('');
  });

  test('the security question is saved on its own and used by the forgotten-password page', async ({
    member,
    memberPage: page,
    request,
    baseURL,
  }) => {
    const sec = security(page);
    await sec.getByRole('button', { name: 'Edit' }).click();
    await sec.getByLabel('Security question').fill('First telescope?');
    await sec.getByLabel('Security answer').fill('Dobsonian');
    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(sec.getByText('Enter your current password.', { exact: true })).toBeVisible();
    await sec.getByLabel('Current password', { exact: true }).fill(member.password);
    await sec.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Security question saved.');
    await expect(sec.getByLabel('Current password', { exact: true })).toHaveValue('');
    await expect(sec.getByLabel('Security question')).toHaveValue('First telescope?');
    await expect(sec.getByLabel('Security answer')).toHaveValue('');
    const answer = await request.post('/api/auth/forgot-password/question', {
      headers: { Origin: baseURL ?? '' },
      data: { identifier: member.username },
    });
    expect(await answer.json()).toEqual({ question: 'First telescope?' });
  });
});

test.describe('settings: Profile', () => {
  test('a new picture changes the header avatar without a reload', async ({ memberPage: page }) => {
    const header = page.locator('.top-bar-user img');
    const before = await header.getAttribute('src');
    const picture = await sharp({
      create: { width: 120, height: 120, channels: 3, background: '#2ec4b6' },
    })
      .png()
      .toBuffer();

    const prof = profile(page);
    await prof.getByRole('button', { name: 'Edit' }).click();
    await prof
      .getByLabel('Profile picture')
      .setInputFiles({ name: 'new.png', mimeType: 'image/png', buffer: picture });
    await expect(prof.getByRole('img', { name: 'New profile picture' })).toBeVisible();
    await prof.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Profile updated.');
    await expect(header).not.toHaveAttribute('src', before ?? '');
    // A new picture has a new name: its address alone changes every avatar of the member.
    await expect(header).toHaveAttribute('src', /\/uploads\/avatars\/[0-9a-f]+\.webp$/);
    expect(await page.evaluate(() => localStorage.getItem('orbit:avatar:v'))).toMatch(/^\d+$/);
  });

  test('25 interests can be picked and the 26th is ignored', async ({ memberPageWith }) => {
    // Pets is a signup interest the settings list lacks: it stays, checked, and counts.
    const page = await memberPageWith({ interests: 'Pets' });
    const prof = profile(page);
    await prof.getByRole('button', { name: 'Edit' }).click();
    await expect(prof.getByText('1/25 selected')).toBeVisible();
    await expect(prof.getByLabel('Pets')).toBeChecked();
    for (const interest of SETTINGS_INTERESTS.slice(0, 24))
      await prof.getByLabel(interest, { exact: true }).check();
    await expect(prof.getByText('25/25 selected')).toBeVisible();

    const last = prof.getByLabel(SETTINGS_INTERESTS[24] ?? '', { exact: true });
    await expect(last).toBeDisabled();
    await last.click({ force: true });
    await expect(last).not.toBeChecked();
    await expect(prof.getByText('25/25 selected')).toBeVisible();

    await prof.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Profile updated.');
    await page.reload();
    await expect(profile(page).getByText('25/25 selected')).toBeVisible();
    await expect(profile(page).getByLabel('Pets')).toBeChecked();
  });

  test('the theme and quote are saved with Ctrl+S', async ({ memberPage: page }) => {
    const prof = profile(page);
    await prof.getByRole('button', { name: 'Edit' }).click();
    await prof.getByRole('radio', { name: 'Dark' }).check();
    await prof.getByLabel('Favorite quote').fill('Per aspera ad astra');
    await page.keyboard.press('Control+s');
    await expect(toast(page)).toHaveText('Profile updated.');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(profile(page).getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expect(profile(page).getByLabel('Favorite quote')).toHaveValue('Per aspera ad astra');
  });

  test('the favourite quote counts down near its limit and stops at it', async ({
    memberPage: page,
  }) => {
    const prof = profile(page);
    // The current picture is round, like the top bar's.
    await expectRoundAvatars(page, 2);
    await prof.getByRole('button', { name: 'Edit' }).click();
    const quote = prof.getByLabel('Favorite quote');
    await quote.fill('q'.repeat(223));
    await expect(prof.getByTestId('char-count')).toHaveCount(0);
    await quote.pressSequentially('q');
    await expect(prof.getByTestId('char-count')).toHaveText('56 characters left');
    await expect(quote).toHaveAccessibleDescription('56 characters left');
    await quote.fill('q'.repeat(279));
    await expect(prof.getByTestId('char-count')).toHaveText('1 character left');
    await quote.pressSequentially('xyz');
    await expect(quote).toHaveValue(`${'q'.repeat(279)}x`);
    await expect(prof.getByTestId('char-count')).toHaveText('0 characters left');
    await prof.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Profile updated.');
  });

  test('an interest held outside the settings list is shown checked and can be removed', async ({
    memberPageWith,
  }) => {
    const page = await memberPageWith({ interests: 'Pets,Tech' });
    const prof = profile(page);
    const pets = prof.getByLabel('Pets', { exact: true });
    // Shown before editing too: the member sees what the account holds.
    await expect(pets).toBeChecked();
    await prof.getByRole('button', { name: 'Edit' }).click();
    await expect(prof.getByText('2/25 selected')).toBeVisible();
    await pets.uncheck();
    // Still offered after unchecking, so the member can change their mind before saving.
    await expect(pets).not.toBeChecked();
    await expect(prof.getByText('1/25 selected')).toBeVisible();
    await prof.getByRole('button', { name: 'Save' }).click();
    await expect(toast(page)).toHaveText('Profile updated.');

    const me = await page.request.get('/api/auth/me');
    const body = (await me.json()) as { user: { interests: string[] } };
    expect(body.user.interests).toEqual(['Tech']);
    await page.reload();
    await expect(profile(page).getByLabel('Tech', { exact: true })).toBeChecked();
    await expect(profile(page).getByLabel('Pets', { exact: true })).toHaveCount(0);
  });
});

test.describe('settings: Referral', () => {
  test('Ctrl+S saves the referral, and the success toast is gone after about 3 s', async ({
    memberPage: page,
  }) => {
    const ref = referral(page);
    await ref.getByRole('button', { name: 'Edit' }).click();
    await ref.getByLabel('Referred by').fill('STARFRIEND');
    await page.keyboard.press('Control+s');
    await expect(toast(page)).toHaveText('Referral updated.');
    const shownAt = Date.now();
    await expect(ref.getByRole('button', { name: 'Edit' })).toBeVisible();
    await expect(toast(page)).toHaveText('', { timeout: 5_000 });
    const shownFor = Date.now() - shownAt;
    expect(shownFor).toBeGreaterThan(2_500);
    expect(shownFor).toBeLessThan(4_000);
    await page.reload();
    await expect(referral(page).getByLabel('Referred by')).toHaveValue('STARFRIEND');
  });

  test('the referral code is copied', async ({ memberPage: page }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const code = await referral(page).getByLabel('Your referral code').inputValue();
    expect(code).toMatch(/\S+/);
    await referral(page).getByRole('button', { name: 'Copy code' }).click();
    await expect(toast(page)).toHaveText('Referral code copied!');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
  });
});

test.describe('settings page', () => {
  // From the own profile: the menu opens Settings.
  test.use({ memberPath: '' });

  test('says the member may be signed out when /me fails', async ({ memberPage: page }) => {
    await page.route('**/api/auth/me', (route) => route.fulfill({ status: 500, body: '' }));
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('alert')).toHaveText('You may be signed out. Please log in again.');
  });

  test('fits a 360 px screen, with the sections as one row of pills', async ({
    browser,
    request,
    baseURL,
  }) => {
    const member = await createMember(request, baseURL ?? '');
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
    await page.goto('/settings');
    const nav = page.getByRole('navigation', { name: 'Settings sections' });
    // Plain names in the navigation; the sections keep their "Step n" titles.
    await expect(nav.getByRole('link')).toHaveText(SETTINGS_NAV);
    await expect(basicInfo(page)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await nav.getByRole('link', { name: 'Referral' }).click();
    const heading = referral(page).getByRole('heading', { name: 'Step 4 Referral' });
    await expect(heading).toBeInViewport();
    // Not under the pinned row of sections.
    const navBottom = (await nav.boundingBox())?.y ?? 0;
    expect((await heading.boundingBox())?.y ?? 0).toBeGreaterThanOrEqual(
      navBottom + ((await nav.boundingBox())?.height ?? 0) - 1,
    );
    await context.close();
  });
});
