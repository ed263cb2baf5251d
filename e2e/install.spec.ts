import AxeBuilder from '@axe-core/playwright';
import { type Locator, type Page, expect, test } from '@playwright/test';
import { type Member, createMember, logIn } from './helpers.ts';

// A phone: where members install Orbit, and where the install entry must be easy to find.
test.use({ viewport: { width: 360, height: 740 }, hasTouch: true });

declare global {
  interface Window {
    /** How many times the page asked for the browser's install dialog. */
    installPrompts?: number;
  }
}

/**
 * The browser offers installation. Chromium fires `beforeinstallprompt` only for a normal profile
 * after its own checks (pwa.spec.ts covers that); here the same event is dispatched, with a
 * prompt() that counts its calls.
 */
async function offerInstall(page: Page) {
  await page.evaluate(() => {
    window.installPrompts = 0;
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: () => {
        window.installPrompts = (window.installPrompts ?? 0) + 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: 'dismissed' }),
    });
    window.dispatchEvent(offer);
  });
}

const prompts = (page: Page) => page.evaluate(() => window.installPrompts ?? 0);
const installCard = (page: Page) => page.getByRole('complementary', { name: 'Install Orbit' });

async function expectTouchSize(target: Locator) {
  const box = await target.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThanOrEqual(44);
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
}

async function axeViolations(page: Page, selector: string) {
  const result = await new AxeBuilder({ page })
    .include(selector)
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.map((violation) => violation.id);
}

async function onOwnProfile(page: Page, member: Member) {
  await logIn(page, member);
  await expect(page).toHaveURL(`/profile/${member.username}`);
  await expect(page.getByRole('heading', { name: member.username })).toBeVisible();
}

test('a member on a phone gets an install card that fits, hides nothing and installs', async ({
  page,
  request,
  baseURL,
}) => {
  // Visitors are not asked: the installed app opens a member's profile.
  await page.goto('/landing');
  await offerInstall(page);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  await expect(installCard(page)).toHaveCount(0);

  const member = await createMember(request, baseURL ?? '');
  await onOwnProfile(page, member);
  // Where the page's top bar and heading are before the offer comes.
  const heading = page.getByRole('heading', { name: member.username });
  const topBar = page.locator('header.top-bar');
  const before = [await topBar.boundingBox(), await heading.boundingBox()];
  await offerInstall(page);
  const card = installCard(page);
  await expect(card).toBeVisible();
  await expect(card).toContainText('Install Orbit to open it from your home screen');
  // Its arrival moves nothing already on the screen.
  expect([await topBar.boundingBox(), await heading.boundingBox()]).toEqual(before);

  // Inside the screen, no sideways scrolling, thumb-sized buttons.
  const box = await card.boundingBox();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectTouchSize(card.getByRole('button', { name: 'Install', exact: true }));
  await expectTouchSize(card.getByRole('button', { name: 'Dismiss install offer' }));
  expect(await axeViolations(page, '.app-notices')).toEqual([]);

  // A compact strip at the foot of the screen, clear of the top bar and the profile's header;
  // at the page's end it has its own room: nothing of the page is left under it.
  expect(box?.height ?? Infinity).toBeLessThanOrEqual(64);
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeCloseTo(740, 0);
  const under = (selector: string) =>
    page.evaluate((selector) => {
      const card = document.querySelector('.app-notices')?.getBoundingClientRect();
      if (!card) return ['no card'];
      return Array.from(document.querySelectorAll(selector))
        .filter((node) => {
          const rect = node.getBoundingClientRect();
          return rect.height > 0 && rect.top < card.bottom && rect.bottom > card.top;
        })
        .slice(0, 3)
        .map((node) => node.tagName);
    }, selector);
  expect(await under('header.top-bar, .profile-header, .profile-header *')).toEqual([]);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => under('main *')).toEqual([]);

  // The keyboard installs too; the offer is then used up, and the card goes.
  await card.getByRole('button', { name: 'Install', exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => prompts(page)).toBe(1);
  await expect(installCard(page)).toHaveCount(0);
});

test('dismissed, the card stays away after a reload; the first menu entry still installs', async ({
  page,
  request,
  baseURL,
}) => {
  await onOwnProfile(page, await createMember(request, baseURL ?? ''));
  await offerInstall(page);
  await installCard(page).getByRole('button', { name: 'Dismiss install offer' }).click();
  await expect(installCard(page)).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Menu' })).toBeVisible();
  await offerInstall(page);
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Pages' });
  const entry = menu.getByRole('listitem').first().getByRole('button', { name: 'Install Orbit' });
  await expect(entry).toBeVisible();
  await expect(installCard(page)).toHaveCount(0);
  await expectTouchSize(entry);
  expect(await axeViolations(page, '.menu-panel')).toEqual([]);

  await entry.click();
  await expect.poll(() => prompts(page)).toBe(1);
  await expect(menu).toBeHidden();
});
