import fs from 'node:fs';
import puppeteer, { type ElementHandle } from 'puppeteer-core';
import type { Driver, Query } from './driver.ts';
import { elementScript, navigate, pageScript, waitUntil } from './driver.ts';

/** Debian's Firefox ESR; FIREFOX_PATH points elsewhere. */
const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

export const firefoxMissing = (): string | undefined =>
  fs.existsSync(FIREFOX_PATH)
    ? undefined
    : `Firefox was not found at ${FIREFOX_PATH} (install Debian's firefox-esr or set FIREFOX_PATH)`;

/**
 * Runs a navigation again when Firefox reports it aborted (NS_BINDING_ABORTED): the page started a
 * navigation of its own at that moment, and ours is what the flow asked for.
 */
async function settled(navigate: () => Promise<unknown>): Promise<void> {
  try {
    await navigate();
  } catch (error) {
    if (!String(error).includes('NS_BINDING_ABORTED')) throw error;
    await navigate();
  }
}

/** Firefox, headless, driven over WebDriver BiDi by puppeteer-core. */
export async function launchFirefox(): Promise<Driver> {
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
    defaultViewport: { width: 1280, height: 900 },
  });
  const page = await browser.newPage();

  const element = async (query: Query) =>
    waitUntil(`${JSON.stringify(query)} to show`, async () => {
      const handle = await page.evaluateHandle(elementScript(query));
      const found = handle.asElement();
      if (!found) await handle.dispose();
      return found as ElementHandle<HTMLElement> | null;
    });

  const run: Driver['run'] = <A extends unknown[], R>(fn: (...args: A) => R, ...args: A) =>
    page.evaluate(pageScript(fn, args)) as Promise<Awaited<R>>;

  return {
    browser: 'firefox',
    run,
    goto: (url) => navigate(run, () => settled(() => page.goto(url))),
    reload: () => navigate(run, () => settled(() => page.reload())),
    url: () => Promise.resolve(page.url()),
    click: async (query) => (await element(query)).click(),
    type: async (query, text) => (await element(query)).type(text),
    setFiles: async (query, files) =>
      ((await element({ ...query, hidden: true })) as ElementHandle<HTMLInputElement>).uploadFile(
        ...files,
      ),
    press: (key) => page.keyboard.press(key),
    cookie: async (name) => {
      const cookie = (await browser.cookies()).find((candidate) => candidate.name === name);
      if (!cookie) return undefined;
      return { expires: cookie.session || cookie.expires < 0 ? undefined : cookie.expires };
    },
    screenshot: async (file) => {
      await page.screenshot({ path: file });
    },
    close: () => browser.close(),
  };
}
