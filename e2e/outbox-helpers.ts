/** Helpers of the offline outbox's specs (docs/decisions.md "The offline outbox"). */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { Member } from './helpers.ts';
import { type Api, controlledPage, imageIds, uploadPhotos } from './pwa-helpers.ts';

/** A write as the app sends it: JSON, with its action's key. Answers the status. */
export const write = (page: Page, method: string, path: string, body: unknown, key: string) =>
  page.evaluate(
    async ({ method, path, body, key }) =>
      (
        await fetch(path, {
          method,
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify(body),
        })
      ).status,
    { method, path, body, key },
  );

/** An outbox message the worker posted to the page: its item's key and what became of it. */
interface OutboxMessage {
  type: 'outbox';
  key: string;
  result: string;
  error?: string;
}

/** What the worker told this page about the outbox, in order, kept by `listeningPage`. */
const kept = (page: Page) =>
  page.evaluate(
    () => JSON.parse(sessionStorage.getItem('outboxMessages') ?? '[]') as OutboxMessage[],
  );

/** The worker's messages to this page with `result` ("queued", "sent", "refused"…), in order. */
export const messages = async (page: Page, result: string) =>
  (await kept(page)).filter((message) => message.result === result);

/** What the worker told this page about the outbox's items settled, in order (not "kept" or "still waiting"). */
export const results = async (page: Page) =>
  (await kept(page)).filter(
    (message) => message.result !== 'waiting' && message.result !== 'queued',
  );

/**
 * A page of a new context with `member` signed in, the worker in control, keeping every outbox
 * message the worker posts in the tab's session storage, so they outlast reloads and navigations.
 */
export async function listeningPage(browser: Browser, member: Member) {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type !== 'outbox') return;
      const kept = JSON.parse(sessionStorage.getItem('outboxMessages') ?? '[]') as unknown[];
      sessionStorage.setItem('outboxMessages', JSON.stringify([...kept, event.data]));
    });
  });
  const page = await controlledPage(context, member);
  await page.reload();
  return { context, page };
}

/** A listening page of `member`, with `count` photos uploaded first; answers their ids too. */
export async function listeningPageWithPhotos(
  browser: Browser,
  member: Member & Api,
  count: number,
) {
  await uploadPhotos(member, count);
  const photoIds = await imageIds(member);
  return { ...(await listeningPage(browser, member)), photoIds };
}

/** Back online: the network on again, and the `online` event the shell's listener hears. */
export async function goOnline(context: BrowserContext, page: Page) {
  await context.setOffline(false);
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
}
