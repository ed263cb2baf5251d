import { type Browser, type Page, expect } from '@playwright/test';
import {
  type Member,
  SETTINGS_NAV,
  addPhotos,
  createMember,
  signedIn,
  test,
  uniqueName,
  untilAppRuns,
} from './helpers.ts';
import { createModerator } from './moderators.ts';

// Phones: nothing scrolls sideways, every tap target is a thumb's size.
test.describe.configure({ timeout: 120_000 });

const WIDTHS = [320, 360, 390] as const;
/** The smallest tap target on a phone, in CSS pixels. */
const TOUCH = 44;

/**
 * What scrolls sideways on this screen: the page itself, and every open dialog, menu, dropdown or
 * toast that sticks out of the viewport or scrolls inside. Empty when all fits.
 */
async function sidewaysScroll(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const classes = Array.from(element.classList)
        .map((name) => `.${name}`)
        .join('');
      return `${element.tagName.toLowerCase()}${id}${classes}`;
    };
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth) {
      // Name the widest culprits, so a failure says where to look.
      const culprits = Array.from(document.body.querySelectorAll('*'))
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
        .slice(0, 5)
        .map(describe);
      problems.push(
        `page is ${root.scrollWidth}px wide in ${window.innerWidth}px: ${culprits.join(', ')}`,
      );
    }
    const layers = document.querySelectorAll(
      'dialog[open], [role="dialog"], [role="menu"], .menu-panel, .search-panel, .toast',
    );
    for (const layer of Array.from(layers)) {
      const box = layer.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
        problems.push(`${describe(layer)} spans ${Math.round(box.left)}–${Math.round(box.right)}`);
      if (layer.scrollWidth > layer.clientWidth + 1)
        problems.push(
          `${describe(layer)} scrolls sideways (${layer.scrollWidth} in ${layer.clientWidth})`,
        );
    }
    return problems;
  });
}

/** Buttons, links and fields a thumb must hit that are smaller than 44 × 44 px. */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((touch) => {
    // Under a modal dialog the page is inert: only the dialog's own targets count.
    const modals = document.querySelectorAll('dialog:modal');
    const scope: ParentNode = modals[modals.length - 1] ?? document;
    const targets = scope.querySelectorAll(
      'button, a[href], input:not([type="hidden"]), select, textarea, [role="tab"], [role="menuitem"], [role="switch"]',
    );
    const small: string[] = [];
    for (const target of Array.from(targets)) {
      const box = target.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      // Off screen until focused (the skip link), or scrolled out of a panel.
      if (box.bottom <= 0 || box.right <= 0 || box.left >= window.innerWidth) continue;
      const style = getComputedStyle(target);
      if (style.visibility === 'hidden' || target.closest('[inert], [aria-hidden="true"]'))
        continue;
      // A link inside running text is exempt (WCAG 2.5.8), as is a checkbox or radio whose label
      // is the target.
      if (target.matches('p a, li > span a')) continue;
      let hit = box;
      if (target.matches('input[type="checkbox"], input[type="radio"]')) {
        const label =
          target.closest('label') ??
          (target.id && document.querySelector(`label[for="${target.id}"]`));
        if (label) hit = label.getBoundingClientRect();
      }
      if (hit.width + 0.5 < touch || hit.height + 0.5 < touch) {
        const name =
          target.getAttribute('aria-label') ||
          target.textContent?.trim().slice(0, 30) ||
          target.getAttribute('name') ||
          target.tagName;
        small.push(
          `${target.tagName.toLowerCase()} "${name}" ${Math.round(hit.width)}×${Math.round(hit.height)}`,
        );
      }
    }
    return small;
  }, TOUCH);
}

/** Soft checks: one run names every screen that does not fit, not only the first. */
async function fits(page: Page, where: string) {
  let problems = await sidewaysScroll(page);
  // A dialog may still be settling into place: give it a moment before judging.
  for (let tries = 0; problems.length > 0 && tries < 10; tries++) {
    await page.waitForTimeout(200);
    problems = await sidewaysScroll(page);
  }
  expect.soft(problems, `${where} scrolls sideways`).toEqual([]);
}

async function thumbSized(page: Page, where: string) {
  expect.soft(await smallTargets(page), `${where}: targets under ${TOUCH} px`).toEqual([]);
}

/** The screen fits and every target on it is big enough for a thumb. */
async function fitsAndTouchable(page: Page, where: string) {
  await fits(page, where);
  await thumbSized(page, where);
}

async function phone(browser: Browser, width: number, member?: Member): Promise<Page> {
  const context = { viewport: { width, height: 740 }, hasTouch: true };
  if (member) return signedIn(browser, member, { context });
  return (await browser.newContext(context)).newPage();
}

for (const width of WIDTHS) {
  test(`at ${width} px nothing scrolls sideways and every target is thumb-sized`, async ({
    browser,
    request,
    baseURL,
  }) => {
    const origin = baseURL ?? '';
    // A long name and quote: the longest words a member can give must still fit.
    const owner = await createMember(request, origin, {
      firstName: 'Maximiliana',
      lastName: 'Oppenheimer-Castellanos',
      favoriteQuote:
        'Somewhere, something incredible is waiting to be known — supercalifragilisticexpialidocious.',
    });
    const friend = await createMember(request, origin);

    // Signed out: the first screens a new member sees.
    const guest = await phone(browser, width);
    for (const path of ['/landing', '/signup', '/forgot-password']) {
      await guest.goto(path);
      await expect(guest.locator('main')).toBeVisible();
      await untilAppRuns(guest);
      await fits(guest, path);
      await thumbSized(guest, path);
    }
    // Signup's pills and its last section, where Create Account sits.
    await guest.goto('/signup');
    await untilAppRuns(guest);
    await guest.getByRole('button', { name: 'Create Account' }).scrollIntoViewIfNeeded();
    await fits(guest, '/signup at the bottom');
    await guest.context().close();

    const page = await phone(browser, width, owner);
    await addPhotos(page, origin, 3);

    // Own profile, its dialogs and its toast.
    await page.goto(`/profile/${owner.username}`);
    await expect(page.getByRole('list', { name: 'Photos' }).locator('.photo-open')).toHaveCount(3);
    await fitsAndTouchable(page, 'own profile');

    // A refused file keeps its tile, with its words and a Dismiss button, inside the phone.
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await (
      await chooser
    ).setFiles({
      name: 'a-very-long-file-name-from-a-phone-camera-roll-IMG_20261124_120000.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture at all'),
    });
    const dismiss = page.getByRole('button', { name: /^Dismiss / });
    await expect(dismiss).toBeVisible();
    await fitsAndTouchable(page, 'a refused upload');
    await dismiss.click();
    await expect(dismiss).toBeHidden();

    await page.getByRole('button', { name: 'Share' }).click();
    await expect(page.getByText('Link copied')).toBeVisible();
    await fits(page, 'the Link copied toast');

    await page.getByRole('button', { name: 'View All' }).click();
    const manager = page.getByRole('dialog', { name: `Photos of @${owner.username}` });
    await expect(manager).toBeVisible();
    await fitsAndTouchable(page, 'gallery manager');
    await manager.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('list', { name: 'Photos' }).locator('.photo-open').first().click();
    const viewer = page.getByRole('dialog', { name: 'Image viewer' });
    await expect(viewer).toBeVisible();
    await fitsAndTouchable(page, 'viewer');
    await viewer.getByRole('button', { name: 'Image actions' }).click();
    await expect(viewer.getByRole('menu')).toBeVisible();
    await fits(page, 'viewer menu');
    await viewer.getByRole('menuitem', { name: 'Delete image' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete image?' });
    await expect(confirm).toBeVisible();
    await fitsAndTouchable(page, 'delete confirmation');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await viewer.getByRole('button', { name: 'Close' }).click();
    await expect(viewer).toBeHidden();

    // The bar: search, bell, overlay, menu.
    const search = page.getByRole('combobox', { name: /Search/ });
    if (!(await search.isVisible()))
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(search).toBeVisible();
    const box = await search.boundingBox();
    expect(box?.width ?? 0, 'the search box has room to type').toBeGreaterThanOrEqual(180);
    await search.fill(friend.username.slice(0, 5));
    await expect(page.getByRole('list', { name: 'Members found' })).toBeVisible();
    await fits(page, 'search results');
    await search.press('Escape');

    const bell = page.getByRole('button', { name: /^Notifications/ });
    await bell.click();
    const dropdown = page.getByRole('dialog', { name: 'Notifications', exact: true });
    await expect(dropdown).toBeVisible();
    await fitsAndTouchable(page, 'bell dropdown');
    await dropdown.getByRole('button', { name: 'View All' }).click();
    const overlay = page.locator('dialog.notifications-overlay');
    await expect(overlay).toBeVisible();
    await fitsAndTouchable(page, 'notifications overlay');
    await overlay.getByRole('button', { name: 'Close' }).click();
    await expect(overlay).toBeHidden();

    await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('navigation', { name: 'Pages' })).toBeVisible();
    await fitsAndTouchable(page, 'menu');
    await page.keyboard.press('Escape');

    // Settings, one section open for editing.
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: /Basic Info/ }).first()).toBeVisible();
    await fitsAndTouchable(page, 'settings');
    await page.getByRole('button', { name: 'Edit' }).first().click();
    await fitsAndTouchable(page, 'settings while editing');

    // Another member's profile, friends with us: the unfriend dialog.
    const accepted = await page.request.post('/api/users/friends/request', {
      headers: { Origin: origin },
      data: { username: friend.username },
    });
    expect(accepted.ok()).toBe(true);
    const other = await phone(browser, width, friend);
    const acceptedBack = await other.request.post('/api/users/friends/accept', {
      headers: { Origin: origin },
      data: { username: owner.username },
    });
    expect(acceptedBack.ok()).toBe(true);
    await other.context().close();
    await page.goto(`/profile/${friend.username}`);
    await expect(page.getByRole('button', { name: 'Unfriend' })).toBeVisible();
    await fitsAndTouchable(page, "another's profile");
    // Its ⋯: the menu, and the report and block dialogs.
    const more = page.getByRole('button', { name: `More actions for @${friend.username}` });
    await more.click();
    await expect(
      page.getByRole('menu', { name: `More actions for @${friend.username}` }),
    ).toBeVisible();
    await fitsAndTouchable(page, "another's profile ⋯ menu");
    await page.getByRole('menuitem', { name: 'Report' }).click();
    const report = page.getByRole('dialog', { name: `Report @${friend.username}` });
    await expect(report).toBeVisible();
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect(report.getByRole('alert')).toBeVisible();
    await fitsAndTouchable(page, 'report dialog');
    await report.getByRole('button', { name: 'Cancel' }).click();
    await more.click();
    await page.getByRole('menuitem', { name: `Block @${friend.username}` }).click();
    const block = page.getByRole('dialog', { name: `Block @${friend.username}?` });
    await expect(block).toBeVisible();
    await fitsAndTouchable(page, 'block dialog');
    await block.getByRole('button', { name: 'Cancel' }).click();
    await expect(block).toBeHidden();
    await page.getByRole('button', { name: 'Unfriend' }).click();
    const unfriend = page.getByRole('dialog', { name: `Unfriend @${friend.username}?` });
    await expect(unfriend).toBeVisible();
    await fitsAndTouchable(page, 'unfriend dialog');
    await unfriend.getByRole('button', { name: 'Confirm Unfriend' }).click();
    await expect(page.getByText('Removed from friends')).toBeVisible();
    await fits(page, 'the Removed from friends toast');
    await page.context().close();
  });
}

/**
 * Where the text inside `locator` breaks between lines: the character before each break, and
 * what the last line holds. A long username must break only after a space, `_` or `.`.
 */
async function lineBreaks(page: Page, selector: string) {
  return page.evaluate((target) => {
    const found: { after: string; lines: string[] }[] = [];
    for (const element of Array.from(document.querySelectorAll(target))) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      const lines: string[] = [];
      let line = '';
      let top: number | null = null;
      let after = '';
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (let at = 0; at < text.length; at++) {
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, at + 1);
          const rect = range.getClientRects()[0];
          if (!rect || rect.width === 0) continue;
          if (top !== null && rect.top > top + 2) {
            after += line.slice(-1);
            lines.push(line);
            line = '';
          }
          top = rect.top;
          line += text[at];
        }
      }
      lines.push(line);
      found.push({ after, lines });
    }
    return found;
  }, selector);
}

/** Every break in the text falls after a space, `_` or `.`, and no line is a lone `?`. */
async function breaksBetweenWords(page: Page, selector: string, where: string) {
  const found = await lineBreaks(page, selector);
  expect(found.length, `${where}: ${selector} is on screen`).toBeGreaterThan(0);
  for (const { after, lines } of found) {
    expect
      .soft(after.replace(/[ _.]/g, ''), `${where} breaks mid-word: ${lines.join(' | ')}`)
      .toBe('');
    expect
      .soft(
        lines.map((line) => line.trim()),
        `${where}: ? alone`,
      )
      .not.toContain('?');
  }
}

test('at 320 px long usernames break only at _ or ., and signup and Settings use the width', async ({
  browser,
  request,
  baseURL,
}) => {
  const origin = baseURL ?? '';
  // The longest usernames there are (20 characters), with a break point near the middle.
  const long = await createMember(request, origin, { username: uniqueName('cassiopeia_w') });
  const reporter = await createMember(request, origin, { username: uniqueName('andromeda.xy') });
  const moderator = await createModerator(request, origin);

  // Signup: the username field is as wide as the others.
  const guest = await phone(browser, 320);
  await guest.goto('/signup');
  await untilAppRuns(guest);
  const username = await guest.getByLabel('Username').boundingBox();
  const firstName = await guest.getByLabel('First name').boundingBox();
  expect(username?.width ?? 0).toBeGreaterThan(0);
  expect(Math.round(username?.width ?? 0)).toBe(Math.round(firstName?.width ?? -1));
  await guest.context().close();

  // The block dialog's title keeps the name whole and the ? with it.
  const page = await phone(browser, 320, reporter);
  await page.goto(`/profile/${long.username}`);
  await page.getByRole('button', { name: `More actions for @${long.username}` }).click();
  await page.getByRole('menuitem', { name: `Block @${long.username}` }).click();
  const block = page.getByRole('dialog', { name: `Block @${long.username}?` });
  await expect(block).toBeVisible();
  await breaksBetweenWords(page, 'dialog[open] h2', 'the block dialog title');
  await fits(page, 'block dialog with a long name');
  await block.getByRole('button', { name: 'Cancel' }).click();

  // Settings: one compact row of plain section names, read-only fields that look it, Edit on top.
  await page.goto('/settings');
  const nav = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(nav.getByRole('link')).toHaveText(SETTINGS_NAV);
  const tops = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => Math.round(link.getBoundingClientRect().top)));
  expect(new Set(tops).size, 'the section links are on one row').toBe(1);
  expect((await nav.boundingBox())?.height ?? Infinity).toBeLessThanOrEqual(64);
  await fits(page, 'settings with its section row');
  const basic = page.getByRole('region', { name: 'Step 1 Basic Info' });
  const edit = basic.getByRole('button', { name: 'Edit' });
  const editBox = await edit.boundingBox();
  const fieldBox = await basic.getByLabel('First name').boundingBox();
  expect(editBox?.y ?? Infinity, 'Edit is above the fields').toBeLessThan(fieldBox?.y ?? 0);
  const looks = (field: string) =>
    basic.getByLabel(field).evaluate((input) => {
      const style = getComputedStyle(input);
      return `${style.borderTopColor} ${style.backgroundColor}`;
    });
  const readOnly = await looks('First name');
  expect(readOnly).toBe('rgba(0, 0, 0, 0) rgba(0, 0, 0, 0)');
  await edit.click();
  expect(await looks('First name'), 'an editable field has its box back').not.toBe(readOnly);
  await page.context().close();

  // A moderator's cards name both members without splitting a name.
  const reported = await request.get(`/api/users/profile/${long.username}`);
  const { user } = (await reported.json()) as { user: { id: string } };
  const reporterApi = await phone(browser, 320, reporter);
  const sent = await reporterApi.request.post('/api/reports', {
    headers: { Origin: origin },
    data: { kind: 'member', targetId: user.id, reason: 'impersonation' },
  });
  expect(sent.status()).toBe(201);
  await reporterApi.context().close();
  const desk = await phone(browser, 320, moderator);
  await desk.goto('/moderation');
  const card = desk.locator('li.report').filter({ hasText: long.username });
  await expect(card).toBeVisible();
  await breaksBetweenWords(desk, 'li.report .report-subject', 'the reported member');
  await breaksBetweenWords(desk, 'li.report .report-reporter', 'the reporter');
  await fits(desk, 'moderation with long names');
  await desk.context().close();
});

test('at 1280 × 860 the bell dropdown keeps View All in view and scrolls its list above it', async ({
  browser,
  baseURL,
  member: owner,
}) => {
  const origin = baseURL ?? '';
  // Enough friend requests for the list to outgrow the dropdown.
  for (let count = 0; count < 12; count++) {
    const api = await browser.newContext({ baseURL: origin });
    const sender = await createMember(api.request, origin);
    await api.request.post('/api/auth/login', {
      headers: { Origin: origin },
      data: { identifier: sender.username, password: sender.password },
    });
    const asked = await api.request.post('/api/users/friends/request', {
      headers: { Origin: origin },
      data: { username: owner.username },
    });
    expect(asked.ok()).toBe(true);
    await api.close();
  }
  const page = await signedIn(browser, owner, {
    context: { viewport: { width: 1280, height: 860 } },
  });
  await page.getByRole('button', { name: /^Notifications/ }).click();
  const dropdown = page.getByRole('dialog', { name: 'Notifications', exact: true });
  // The twelve requests, and any notice of the server's own.
  await expect
    .poll(() => dropdown.locator('.notification-item').count())
    .toBeGreaterThanOrEqual(12);
  const viewAll = dropdown.getByRole('button', { name: 'View All' });
  await expect(viewAll).toBeInViewport({ ratio: 1 });
  const scroller = dropdown.locator('.bell-panel-scroll');
  const { scrollHeight, clientHeight } = await scroller.evaluate((element) => ({
    scrollHeight: element.scrollHeight,
    clientHeight: element.clientHeight,
  }));
  expect(scrollHeight, 'the list scrolls').toBeGreaterThan(clientHeight);
  const panel = await dropdown.boundingBox();
  expect((panel?.y ?? 0) + (panel?.height ?? Infinity)).toBeLessThanOrEqual(860);
  await scroller.evaluate((element) => element.scrollTo(0, element.scrollHeight));
  await expect(viewAll).toBeInViewport({ ratio: 1 });
  await page.context().close();
});
