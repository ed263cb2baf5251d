/** Helpers of the offline outbox's specs (docs/decisions.md "The offline outbox"). */
import type { Browser, Page } from '@playwright/test';
import type { Member } from './helpers.ts';
import { type Api, controlledPage } from './pwa-helpers.ts';

export async function imageIds(api: Api): Promise<string[]> {
  const response = await api.request.get(`/api/gallery?userId=${api.id}`);
  const { images } = (await response.json()) as { images: { id: string }[] };
  return images.map((image) => image.id);
}

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

/** What the worker told this page about the outbox's items settled, in order (not "kept" or "still waiting"). */
export const results = (page: Page) =>
  page.evaluate(() =>
    (window as unknown as { outboxResults: { result: string }[] }).outboxResults.filter(
      (message) => message.result !== 'waiting' && message.result !== 'queued',
    ),
  );

/** A page of a new context with `member` signed in, the worker in control, keeping its messages. */
export async function listeningPage(browser: Browser, member: Member) {
  const context = await browser.newContext();
  await context.addInitScript(() => {
    const kept: unknown[] = [];
    (window as unknown as { outboxResults: unknown[] }).outboxResults = kept;
    navigator.serviceWorker?.addEventListener('message', (event: MessageEvent) => {
      if ((event.data as { type?: unknown } | null)?.type === 'outbox') kept.push(event.data);
    });
  });
  const page = await controlledPage(context, member);
  await page.reload();
  return { context, page };
}
