/**
 * What the smoke flows need from a browser, so one list of flows (flows.ts) runs in Firefox over
 * WebDriver BiDi (puppeteer-core) and in WebKitGTK over classic WebDriver (selenium-webdriver).
 * Elements are found in the page by what a member sees (see query.ts), then clicked and typed into
 * through each driver's real input events.
 */
import { type Query, findElements } from './query.ts';

export type { Query } from './query.ts';

export interface Driver {
  readonly browser: 'firefox' | 'webkit';
  /** Runs `fn` in the page (it must not close over anything; arguments are JSON) and awaits it. */
  run<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  /** Waits for the element and clicks it with the pointer. */
  click(query: Query): Promise<void>;
  /** Waits for the field and types into it with the keyboard. */
  type(query: Query, text: string): Promise<void>;
  /** Chooses these files in a file input, as the file picker would. */
  setFiles(query: Query, files: string[]): Promise<void>;
  press(key: 'Escape' | 'ArrowRight' | 'ArrowLeft'): Promise<void>;
  /** The cookie's expiry in seconds since the epoch; undefined for a session cookie. */
  cookie(name: string): Promise<{ expires: number | undefined } | undefined>;
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `findElements`, as functions sent to the page call it. (A module's imports are renamed when it
 * is transformed for the test runner, so the page gets the finder under a name of its own.)
 */
declare const pageFind: typeof findElements;

/**
 * The source the drivers send for `fn(...args)`: the page's element finder first, and a stand-in
 * for the name helper some TypeScript transforms add to functions (it does not exist in the page).
 */
export function pageScript(fn: { toString: () => string }, args: unknown[]): string {
  return `(() => {
    const __name = (target) => target;
    const pageFind = ${findElements.toString()};
    return (${fn.toString()})(...${JSON.stringify(args)});
  })()`;
}

/** The first element matching `query`, for the drivers to turn into an element reference. */
export function elementScript(query: Query): string {
  return pageScript((q: Query) => pageFind(q)[0] ?? null, [query]);
}

const WAIT_MS = 15_000;

/**
 * Navigates, then waits for the new document. A driver may report a navigation done while the old
 * page still shows (WebKitGTK's, when the service worker answers it); two pages alike, such as the
 * landing page loaded twice, would then be told apart by nothing. The old page carries a mark.
 */
export async function navigate(run: Driver['run'], go: () => Promise<unknown>): Promise<void> {
  await run(() => {
    (window as { orbitLeaving?: boolean }).orbitLeaving = true;
  }).catch(() => undefined);
  await go();
  await waitUntil('the new page to load', () =>
    run(() => !('orbitLeaving' in window) && document.readyState !== 'loading'),
  );
}

/** Polls `check` (a condition in the page or in Node) until it holds, or fails with `what`. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | null | false>,
  timeout = WAIT_MS,
): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: Error | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      // A navigation can destroy the page's context mid-check; try again.
      last = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > deadline)
      throw new Error(
        `Timed out after ${timeout} ms waiting for ${what}${last ? ` (${last.message})` : ''}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Waits until the page shows an element matching `query`. */
export function waitFor(driver: Driver, query: Query, timeout = WAIT_MS): Promise<true> {
  return waitUntil(
    `${JSON.stringify(query)} to show`,
    () => driver.run((q: Query) => pageFind(q).length > 0, query),
    timeout,
  );
}

/** Waits until one of `queries` shows, and says which (its index). */
export function whichShows(driver: Driver, queries: Query[]): Promise<number> {
  return waitUntil(`one of ${JSON.stringify(queries)} to show`, async () => {
    const index = await driver.run(
      (all: Query[]) => all.findIndex((q) => pageFind(q).length > 0),
      queries,
    );
    return index >= 0 ? index : undefined;
  });
}

/** Waits until nothing matching `query` shows. */
export function waitGone(driver: Driver, query: Query, timeout = WAIT_MS): Promise<true> {
  return waitUntil(
    `${JSON.stringify(query)} to go`,
    () => driver.run((q: Query) => pageFind(q).length === 0, query),
    timeout,
  );
}

/** Waits until the page's visible text contains `text`. */
export function waitForText(driver: Driver, text: string, timeout = WAIT_MS): Promise<true> {
  return waitUntil(
    `the text "${text}"`,
    () => driver.run((wanted: string) => document.body.innerText.includes(wanted), text),
    timeout,
  );
}

/** Waits until the address (path and query) matches `pattern`. */
export function waitForPath(driver: Driver, pattern: RegExp): Promise<string> {
  return waitUntil(`the address to match ${String(pattern)}`, async () => {
    const url = new URL(await driver.url());
    const path = url.pathname + url.search;
    return pattern.test(path) ? path : undefined;
  });
}

/** An attribute of the first element matching `query`, once it shows. */
export function attributeOf(driver: Driver, query: Query, name: string): Promise<string> {
  return waitUntil(`${JSON.stringify(query)} with [${name}]`, () =>
    driver.run(
      (q: Query, attribute: string) => pageFind(q)[0]?.getAttribute(attribute),
      query,
      name,
    ),
  );
}

/** Waits until `count` images match `query`, every one loaded and decoded into a picture. */
export function thumbnails(driver: Driver, query: Query, count: number): Promise<true> {
  return waitUntil(`${count} loaded × ${JSON.stringify(query)}`, () =>
    driver.run(
      (q: Query, n: number) => {
        const images = pageFind(q) as HTMLImageElement[];
        return (
          images.length === n && images.every((image) => image.complete && image.naturalWidth > 0)
        );
      },
      query,
      count,
    ),
  );
}

/**
 * Sets a date field as a date picker does. Typing into one depends on the browser's locale and
 * its own widget (WebKitGTK has none), so the value goes in through the input's setter with the
 * events React listens to.
 */
export async function setDate(driver: Driver, query: Query, value: string): Promise<void> {
  await waitFor(driver, query);
  await driver.run(
    (q: Query, date: string) => {
      const input = pageFind(q)[0] as HTMLInputElement;
      // React tracks the value it set last; the prototype's setter goes around that record.
      const descriptor = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value');
      descriptor?.set?.call(input, date);
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    },
    query,
    value,
  );
}
