import { type Locator, type Page, expect } from '@playwright/test';

/** Every member picture in `scope` is drawn round, by the one shared `.avatar` rule. */
export async function expectRoundAvatars(scope: Page | Locator, atLeast = 1): Promise<void> {
  const avatars = scope.locator('.avatar');
  await expect(avatars.nth(atLeast - 1)).toBeVisible();
  const radii = await avatars.evaluateAll((nodes) =>
    nodes.map((node) => getComputedStyle(node).borderRadius),
  );
  expect(radii).toEqual(radii.map(() => '50%'));
}
