/**
 * A new build deployed while pages of the previous one are open (docs/deploy.md "Upgrades"). The
 * pages here have no service worker, as on a first visit, so every chunk comes from the server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Page, expect, test } from '@playwright/test';
import { freePort } from './ports.ts';
import { buildMarked, startServer, tempDir } from './pwa-helpers.ts';

const SOMETHING_WENT_WRONG = 'Something went wrong.';

/** Moves the app to `pathname` as its own links do, without loading a document. */
async function clientNavigate(page: Page, pathname: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate'));
  }, pathname);
}

/** Counts the documents the page loads (reloads included) from now on. */
function countNavigations(page: Page): () => number {
  let documents = 0;
  page.on('load', () => {
    documents += 1;
  });
  return () => documents;
}

test('a page from one build keeps loading its parts after the next build, and reloads once into it when they are gone', async ({
  browser,
}) => {
  // Two production builds: more than the default 30 s on a busy machine.
  test.setTimeout(180_000);
  const work = tempDir('orbit-e2e-upgrade-');
  const live = path.join(work, 'dist');
  await buildMarked(live, 'A');
  const server = await startServer({
    port: await freePort(),
    staticDir: live,
    dataDir: path.join(work, 'data'),
  });
  // The server's files alone: a worker's precache would answer the parts this test takes away.
  const context = await browser.newContext({ baseURL: server.origin, serviceWorkers: 'block' });
  try {
    const pageA = await context.newPage();
    await pageA.goto('/landing');
    await expect(pageA.locator('html')).toHaveAttribute('data-build', 'A');

    // `npm run build` while the server runs.
    await buildMarked(live, 'B');

    // A new visitor gets build B at once, every file of it found.
    const newcomer = await context.newPage();
    const missing: string[] = [];
    newcomer.on('response', (response) => {
      if (response.status() >= 400) missing.push(`${response.status()} ${response.url()}`);
    });
    await newcomer.goto('/landing');
    await expect(newcomer.locator('html')).toHaveAttribute('data-build', 'B');
    await newcomer.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(newcomer.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    expect(missing).toEqual([]);
    await newcomer.close();

    // The page still running build A loads its own lazy part: the build kept A's files.
    const navigationsOfA = countNavigations(pageA);
    await pageA.getByRole('link', { name: 'Forgot password?' }).click();
    await expect(pageA.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
    await expect(pageA.locator('html')).toHaveAttribute('data-build', 'A');
    expect(navigationsOfA()).toBe(0);

    // A's own files are gone, as on a node that never had them: A's next part fails to load,
    // and the page reloads once, into build B, where that part loads.
    const replaced = JSON.parse(
      fs.readFileSync(path.join(live, '.vite', 'replaced.json'), 'utf8'),
    ) as Record<string, number>;
    expect(Object.keys(replaced).length).toBeGreaterThan(0);
    for (const file of Object.keys(replaced)) fs.rmSync(path.join(live, file));
    await clientNavigate(pageA, '/landing');
    await pageA.getByRole('button', { name: 'Sign Up' }).click();
    await expect(pageA.getByRole('heading', { name: 'Create your account' })).toBeVisible({
      timeout: 15_000,
    });
    await expect(pageA.locator('html')).toHaveAttribute('data-build', 'B');
    expect(navigationsOfA()).toBe(1);
    // The app has taken over sign-up's first screen: its router hears the next navigation.
    await expect(pageA.getByLabel('Username')).toBeEditable();

    // A part that still fails right after that reload: no second reload, a plain message.
    await pageA.route('**/assets/ForgotPasswordPage-*', (route) => route.abort());
    await clientNavigate(pageA, '/forgot-password');
    await expect(pageA.getByText(SOMETHING_WENT_WRONG)).toBeVisible();
    await pageA.waitForTimeout(1_000);
    expect(navigationsOfA()).toBe(1);
  } finally {
    await context.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
