import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { createMember, logIn } from './helpers.ts';

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

test.describe('accessibility of the public pages', () => {
  for (const path of ['/landing', '/signup', '/forgot-password']) {
    test(`${path} has no WCAG A/AA violations`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('main')).toBeVisible();
      expect(await violations(page)).toEqual([]);
    });
  }
});

test.describe('accessibility of the signed-in pages', () => {
  test('spacehub, a profile and settings have no WCAG A/AA violations, in every theme', async ({
    page,
    request,
    baseURL,
  }) => {
    test.setTimeout(150_000);
    const member = await createMember(request, baseURL ?? '');
    await logIn(page, member);
    await expect(page).toHaveURL(/\/profile\//);
    for (const theme of ['normal1', 'light', 'dark', 'normal2', 'custom']) {
      await page.evaluate(
        (name) => document.documentElement.setAttribute('data-theme', name),
        theme,
      );
      for (const path of ['/spacehub', `/profile/${member.username}`, '/settings']) {
        await page.evaluate((to) => {
          window.history.pushState({}, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        await expect(page.locator('main')).toBeVisible();
        await page.evaluate(
          (name) => document.documentElement.setAttribute('data-theme', name),
          theme,
        );
        expect({ theme, path, violations: await violations(page) }).toEqual({
          theme,
          path,
          violations: [],
        });
      }
    }
  });
});
