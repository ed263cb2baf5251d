import AxeBuilder from '@axe-core/playwright';
import { type Page, expect } from '@playwright/test';
import { createMember, logIn, test } from './helpers.ts';
import { makeModerator } from './moderators.ts';

/** WCAG 2.1 A and AA rules, as axe-core checks them in the real page. */
async function violations(page: Page) {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations.map((violation) => ({
    id: violation.id,
    nodes: violation.nodes.map((node) => node.target.join(' ')),
  }));
}

// One axe run takes 5–10 s of a 2-core machine's time: each test gets room for the runs it makes.
test.describe.configure({ timeout: 90_000 });

test.describe('accessibility of the public pages', () => {
  for (const path of ['/landing', '/signup', '/forgot-password']) {
    test(`${path} has no WCAG A/AA violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });
  }
});

/** Moves within the app, as its links do, without reloading the page. */
async function navigate(page: Page, to: string) {
  await page.evaluate((path) => {
    window.history.pushState({}, '', path);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await expect(page.locator('main')).toBeVisible();
}

/** The top-bar toggle, which cycles normal1 → dark → light. */
async function toggleTheme(page: Page) {
  await page.getByRole('button', { name: /^Theme:/ }).click();
}

/** Settings, Step 3 Profile: the themes the toggle does not reach, chosen and saved. */
function chooseInSettings(label: string) {
  return async (page: Page) => {
    await navigate(page, '/settings');
    const profile = page.getByRole('region', { name: 'Step 3 Profile' });
    await profile.getByRole('button', { name: 'Edit' }).click();
    await profile.getByRole('radio', { name: label }).check();
    await profile.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('.toast-region')).toHaveText('Profile updated.');
  };
}

test.describe('accessibility of the signed-in pages', () => {
  test('spacehub, a profile, settings and reports have no WCAG A/AA violations, in every theme', async ({
    page,
    request,
    playwright,
    baseURL,
  }) => {
    // Twenty runs: four pages in five themes.
    test.setTimeout(300_000);
    const member = await createMember(request, baseURL ?? '');
    // A moderator with a report to read, so that /moderation shows its tabs, list and actions.
    await makeModerator(member);
    const reporter = await playwright.request.newContext({ baseURL: baseURL ?? '' });
    await createMember(reporter, baseURL ?? '');
    const { user } = (await (await request.get('/api/auth/me')).json()) as { user: { id: string } };
    const reported = await reporter.post('/api/reports', {
      headers: { Origin: baseURL ?? '' },
      data: { kind: 'member', targetId: user.id, reason: 'spam', note: 'Posts the same link.' },
    });
    expect(reported.status()).toBe(201);
    await reporter.dispose();
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
    const html = page.locator('html');
    // Each theme reached as a member reaches it, from the one a new member starts with.
    const themes: [string, (page: Page) => Promise<void>][] = [
      ['normal1', async () => {}],
      ['dark', toggleTheme],
      ['light', toggleTheme],
      ['normal2', chooseInSettings('Nebula')],
      ['custom', chooseInSettings('Custom')],
    ];
    for (const [theme, choose] of themes) {
      await choose(page);
      await expect(html).toHaveAttribute('data-theme', theme);
      for (const path of ['/spacehub', `/profile/${member.username}`, '/settings', '/moderation']) {
        await navigate(page, path);
        if (path === '/moderation')
          await expect(page.getByRole('button', { name: 'Dismiss' }).first()).toBeVisible();
        await expect(html).toHaveAttribute('data-theme', theme);
        expect({ theme, path, violations: await violations(page) }).toEqual({
          theme,
          path,
          violations: [],
        });
      }
    }
  });

  test('another member’s profile, its ⋯ menu and the block and report dialogs have no WCAG A/AA violations', async ({
    page,
    member,
    otherMember: other,
  }) => {
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
    await navigate(page, `/profile/${other.username}`);
    const more = page.getByRole('button', { name: `More actions for @${other.username}` });
    await expect(more).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await more.click();
    await expect(
      page.getByRole('menu', { name: `More actions for @${other.username}` }),
    ).toBeVisible();
    expect(await violations(page)).toEqual([]);

    // The report dialog with its error showing, then the block confirmation.
    await page.getByRole('menuitem', { name: 'Report' }).click();
    const report = page.getByRole('dialog', { name: `Report @${other.username}` });
    await report.getByRole('button', { name: 'Send report' }).click();
    await expect(report.getByRole('alert')).toHaveText('Pick a reason.');
    expect(await violations(page)).toEqual([]);
    await report.getByRole('button', { name: 'Cancel' }).click();
    await more.click();
    await page.getByRole('menuitem', { name: `Block @${other.username}` }).click();
    await expect(page.getByRole('dialog', { name: `Block @${other.username}?` })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});

test.describe('accessibility of the safety parts of settings', () => {
  test('a blocked member in the list and the delete dialog have no WCAG A/AA violations', async ({
    page,
    member,
    otherMember: blocked,
    baseURL,
  }) => {
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
    const profile = await page.request.get(`/api/users/profile/${blocked.username}`);
    const { user } = (await profile.json()) as { user: { id: string } };
    const block = await page.request.post('/api/users/blocks', {
      headers: { Origin: baseURL ?? '' },
      data: { userId: user.id },
    });
    expect(block.ok()).toBe(true);
    await navigate(page, '/settings');
    await expect(
      page.getByRole('region', { name: 'Blocked members' }).getByRole('listitem'),
    ).toHaveCount(1);
    expect(await violations(page)).toEqual([]);

    await page
      .getByRole('region', { name: 'Danger zone' })
      .getByRole('button', { name: 'Delete my account' })
      .click();
    await expect(page.getByRole('dialog', { name: 'Delete your account?' })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
});
