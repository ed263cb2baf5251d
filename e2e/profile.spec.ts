import { type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { expectRoundAvatars } from './avatars.ts';
import { type Api, apiAs } from './pwa-helpers.ts';
import { createMember, logIn, signedIn, test } from './helpers.ts';

async function befriend(a: Api, b: Api) {
  expect(
    (await a.request.post('/api/users/friends/request', { data: { toUserId: b.id } })).ok(),
  ).toBe(true);
  expect(
    (await b.request.post('/api/users/friends/accept', { data: { fromUserId: a.id } })).ok(),
  ).toBe(true);
}

async function uploadPhoto(api: Api, colour: string): Promise<string> {
  const buffer = await sharp({ create: { width: 64, height: 48, channels: 3, background: colour } })
    .png()
    .toBuffer();
  const response = await api.request.post('/api/gallery', {
    multipart: { image: { name: 'photo.png', mimeType: 'image/png', buffer } },
  });
  expect(response.status()).toBe(201);
  const { image } = (await response.json()) as { image: { _id?: string; id?: string } };
  return String(image.id ?? image._id);
}

async function like(api: Api, imageId: string) {
  expect((await api.request.patch(`/api/gallery/${imageId}`, { data: { likes: true } })).ok()).toBe(
    true,
  );
}

const header = (page: Page) => page.locator('.profile-header');

test('the owner edits the quote; it is saved and survives a reload', async ({
  memberPage: page,
}) => {
  await expect(header(page).getByText('Where connection meets cosmos.')).toBeVisible();

  await page.getByRole('button', { name: 'Edit Profile' }).click();
  await expect(page.getByRole('button', { name: 'Close Editor' })).toBeVisible();
  const field = page.getByLabel('Favorite quote');
  await field.fill('Ad astra per aspera.');

  // A failing save is shown by the editor and keeps it open.
  await page.route('**/api/auth/profile', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Could not save. Please try again.')).toBeVisible();
  await page.unroute('**/api/auth/profile');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'Edit Profile' })).toBeVisible();
  await expect(header(page).locator('blockquote')).toHaveText('Ad astra per aspera.');
  await page.reload();
  await expect(header(page).locator('blockquote')).toHaveText('Ad astra per aspera.');
  await page.context().close();
});

test('counters and the Friends section reflect real friends, photos and likes', async ({
  browser,
  request,
  baseURL,
  playwright,
}) => {
  const base = baseURL ?? '';
  const [alice, bob, carol, dave] = await Promise.all([
    createMember(request, base),
    createMember(request, base),
    createMember(request, base),
    createMember(request, base),
  ]);
  const [a, b, c] = await Promise.all([
    apiAs(playwright, base, alice),
    apiAs(playwright, base, bob),
    apiAs(playwright, base, carol),
  ]);
  await befriend(a, b);
  await befriend(c, a);
  const first = await uploadPhoto(a, '#ff5500');
  const second = await uploadPhoto(a, '#0055ff');
  await like(b, first);
  await like(c, first);
  await like(c, second);
  // Bob has one of each, so his counters read in the singular.
  await like(a, await uploadPhoto(b, '#22aa66'));

  const page = await signedIn(browser, alice);
  await expect(header(page).getByText('2 Friends • 2 Posts • 3 Likes')).toBeVisible();
  const friends = page.getByRole('region', { name: 'Friends' });
  for (const member of [bob, carol]) {
    await expect(friends.getByRole('link', { name: `@${member.username}` })).toBeVisible();
  }
  // Top bar, profile header and the friends list: all round.
  await expectRoundAvatars(page, 4);
  await friends.getByRole('link', { name: `@${bob.username}` }).click();
  await expect(page).toHaveURL(new RegExp(`/profile/${bob.username}$`));
  await expect(header(page).getByText('1 Friend • 1 Post • 1 Like', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('region', { name: 'Friends' }).getByRole('link', { name: `@${alice.username}` }),
  ).toBeVisible();
  await page.context().close();

  // A member without friends or photos.
  const lonely = await signedIn(browser, dave);
  await expect(header(lonely).getByText('0 Friends • 0 Posts • 0 Likes')).toBeVisible();
  await expect(
    lonely.getByRole('region', { name: 'Friends' }).getByText('No friends yet.'),
  ).toBeVisible();
  await lonely.context().close();
  await Promise.all([a, b, c].map((api) => api.request.dispose()));
});

test("a visitor sees the owner's theme, no editor, disabled Message and Post, and Share copies the link", async ({
  browser,
  request,
  baseURL,
  playwright,
}, testInfo) => {
  const base = baseURL ?? '';
  const owner = await createMember(request, base);
  const visitor = await createMember(request, base);
  const ownerApi = await apiAs(playwright, base, owner);
  expect((await ownerApi.request.put('/api/users/theme', { data: { theme: 'dark' } })).ok()).toBe(
    true,
  );
  await ownerApi.request.dispose();

  const page = await signedIn(browser, visitor, { clipboard: true });
  await page.addInitScript(() => {
    // The copy path is what this test checks, whatever share sheet the browser has.
    Object.defineProperty(Navigator.prototype, 'share', { value: undefined, configurable: true });
  });
  await page.goto(`/profile/${owner.username}`);
  await expect(page.getByRole('heading', { name: `@${owner.username}`, level: 1 })).toBeVisible();

  const container = page.locator('main.profile-page');
  await expect(container).toHaveAttribute('data-theme', 'dark');
  const palette = await container.evaluate((element) =>
    getComputedStyle(element).getPropertyValue('--bg').trim(),
  );
  const appPalette = await page.evaluate(() =>
    getComputedStyle(document.documentElement).getPropertyValue('--bg').trim(),
  );
  expect(palette).toBe('#0b0b0f');
  expect(appPalette).not.toBe(palette);
  await page.screenshot({ path: testInfo.outputPath('profile-visitor-dark.png'), fullPage: true });

  await expect(page.getByRole('button', { name: 'Edit Profile' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Add', exact: true })).toBeVisible();
  await expect(page.getByText('Featured In:')).toBeVisible();
  await expect(page.getByText('Achievements:')).toBeVisible();
  const message = page.getByRole('button', { name: 'Message' });
  await expect(message).toBeDisabled();
  await expect(message).toHaveAttribute('title', 'Coming soon');
  const postBox = page.getByLabel("What's on your mind?");
  await expect(postBox).toBeVisible();
  await expect(postBox).toBeDisabled();
  await expect(
    page.getByRole('region', { name: 'New post' }).getByText('Coming soon'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Post' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Post' })).toHaveAttribute('title', 'Coming soon');
  await expect(page.getByRole('region', { name: 'Photos' })).toBeVisible();

  await page.getByRole('button', { name: 'Share' }).click();
  await expect(page.getByText('Link copied')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${base}/profile/${owner.username}`,
  );
  await expect(page.getByText('Link copied')).toBeHidden({ timeout: 3_000 });

  await page.goto('/profile/nobody-by-this-name');
  await expect(page.getByRole('heading', { name: 'Member not found' })).toBeVisible();
  await page.context().close();
});

test('the profile fits from 360 px to a wide desktop', async ({
  browser,
  request,
  baseURL,
}, testInfo) => {
  const owner = await createMember(request, baseURL ?? '', {
    firstName: 'Wide',
    lastName: 'Screen',
  });
  const page = await signedIn(browser, owner);
  await page.getByRole('button', { name: 'Edit Profile' }).click();
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(header(page)).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: testInfo.outputPath(`profile-${width}.png`), fullPage: true });
  }
  await page.context().close();
});

/** The colours a member sees on their profile: the bar, the page, its cards, texts and buttons. */
function profileColours(page: Page) {
  return page.evaluate(() => {
    const selectors = [
      'body',
      '.top-bar',
      'main.profile-page',
      '.profile-header',
      '.profile-username',
      '.profile-counts',
      '.profile-quote',
      '.gallery-section',
      '.button.primary',
    ];
    return Object.fromEntries(
      selectors.map((selector) => {
        const element = document.querySelector(selector);
        if (!element) return [selector, 'missing'];
        const style = getComputedStyle(element);
        return [selector, `${style.backgroundColor} ${style.color} ${style.borderTopColor}`];
      }),
    );
  });
}

test('the top-bar theme toggle recolours one’s own profile at once, exactly as a reload shows it', async ({
  browser,
  request,
  baseURL,
}) => {
  const member = await createMember(request, baseURL ?? '');
  const page = await (await browser.newContext()).newPage();
  await logIn(page, member);
  await expect(page).toHaveURL(new RegExp(`/profile/${member.username}$`));
  const main = page.locator('main.profile-page');
  await expect(main).toHaveAttribute('data-theme', 'normal1');
  await expect(
    page.getByRole('list', { name: 'Photos' }).or(page.getByText(/No images yet/)),
  ).toBeVisible();
  const before = await profileColours(page);

  const saved = page.waitForResponse((response) => response.url().endsWith('/api/users/theme'));
  await page.getByRole('button', { name: /^Theme:/ }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(main).toHaveAttribute('data-theme', 'dark');
  const toggled = await profileColours(page);
  expect(toggled['main.profile-page']).not.toBe(before['main.profile-page']);

  await page.reload();
  await expect(main).toHaveAttribute('data-theme', 'dark');
  await expect(
    page.getByRole('list', { name: 'Photos' }).or(page.getByText(/No images yet/)),
  ).toBeVisible();
  expect(await profileColours(page)).toEqual(toggled);
});
