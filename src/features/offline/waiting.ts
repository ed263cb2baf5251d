/**
 * The member's writes waiting in the offline outbox as the page reads them (docs/decisions.md
 * "The offline outbox"): each a call of the endpoint table with its path parameters and body. The
 * stores apply them on top of what they hold, so a change made offline still shows after a reload
 * from the saved copies; the marks say which changes are still waiting.
 */
import { paramsOf } from '../../contracts/endpoints.lists.ts';
import type { EndpointPath } from '../../contracts/endpoints.paths.ts';
import type { OutboxItem } from '../../lib/outboxQueue.ts';
import { useOutboxItems } from './outbox.ts';

/** One waiting write as a call of an endpoint: its path parameters and its JSON body's fields. */
export interface WaitingCall<B> {
  item: OutboxItem;
  entry: EndpointPath;
  params: Record<string, string>;
  body: Partial<B>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The waiting items that are calls of one of `entries` (method and path), oldest first. */
export function waitingCalls<B>(
  items: readonly OutboxItem[],
  entries: EndpointPath | readonly EndpointPath[],
): WaitingCall<B>[] {
  const list: readonly EndpointPath[] = Array.isArray(entries)
    ? entries
    : [entries as EndpointPath];
  const calls: WaitingCall<B>[] = [];
  for (const item of items) {
    for (const entry of list) {
      if (entry.method !== item.method.toUpperCase()) continue;
      const params = paramsOf(entry, item.path);
      if (!params) continue;
      calls.push({
        item,
        entry,
        params,
        body: (isRecord(item.json) ? item.json : {}) as Partial<B>,
      });
      break;
    }
  }
  return calls;
}

/** The member's waiting items now. */
export const waitingItems = (): readonly OutboxItem[] => useOutboxItems.getState().items;

/** Runs `apply` each time the member's waiting items change; answers the function that stops. */
export function onWaitingItems(apply: (items: readonly OutboxItem[]) => void): () => void {
  return useOutboxItems.subscribe((state, previous) => {
    if (state.items !== previous.items) apply(state.items);
  });
}

/** Whether a waiting write is a call of `entries` that `matches` (a "Waiting to send" mark). */
export function useWaiting<B>(
  entries: EndpointPath | readonly EndpointPath[],
  matches: (call: WaitingCall<B>) => boolean,
): boolean {
  return useOutboxItems((state) => waitingCalls<B>(state.items, entries).some(matches));
}
