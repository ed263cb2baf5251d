/**
 * The page's side of the offline outbox (docs/decisions.md "The offline outbox"): the worker keeps
 * a write that could not reach the server and sends it when the network is back. Where the browser
 * has no Background Sync, only the page knows when that is, so the signed-in shell asks the worker
 * to send the member's waiting items at start, when the browser goes online and on focus. The
 * worker tells the page each item's result: what is shown is read again once items have settled,
 * so a refused change is undone, and the refusals are listed in one notice in the server's words.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { OUTBOX_REPLAY, type OutboxResult } from '../../contracts/constants.ts';
import { readCurrentMember } from '../../lib/idb.ts';
import { joinMemberState } from '../../lib/memberState.ts';
import {
  type OutboxItem,
  discardOutboxItems,
  readOutbox,
  wipeOutbox,
} from '../../lib/outboxQueue.ts';
import { refetchShown } from '../../lib/serverState.ts';

/** A refusal without words of the server's. */
export const NOT_SENT = 'A change could not be sent.';
/** Settled items within this long of each other cost one read of what is shown. */
const SETTLED_READ_MS = 300;

interface OutboxState {
  /** The server's words for each change it refused when the outbox sent it, oldest first. */
  refused: string[];
  dismiss: () => void;
}

export const useOutboxNotice = create<OutboxState>()((set) => ({
  refused: [],
  dismiss: () => set({ refused: [] }),
}));

interface OutboxItems {
  /** The signed-in member's writes waiting to be sent, oldest first. */
  items: OutboxItem[];
  /** Reads the list again from the device. */
  load: () => Promise<void>;
  /** Drops one waiting write: it is never sent, and what is shown is read again. */
  discard: (id: number) => Promise<void>;
}

let loads = 0;
/** Keys the worker said were settled: a read begun before that answer must not show them again. */
const settled = new Set<string>();

export const useOutboxItems = create<OutboxItems>()((set, get) => ({
  items: [],
  async load() {
    const run = ++loads;
    const memberId = await readCurrentMember();
    const items = memberId ? await readOutbox(memberId) : [];
    // A later read wins over an earlier one still under way.
    if (run === loads) set({ items: items.filter((item) => !settled.has(item.key)) });
  },
  async discard(id) {
    await discardOutboxItems([id]);
    await get().load();
    refetchShown('online');
  },
}));

/**
 * The member's waiting writes go with the rest of their copies when their session ends (logout
 * here or in another tab, the account deleted, the server saying it ended), never when the server
 * merely could not be reached: those are sent once it can be.
 */
joinMemberState('outbox', {
  reset: async ({ memberId, ended }) => {
    loads += 1;
    settled.clear();
    useOutboxNotice.getState().dismiss();
    useOutboxItems.setState({ items: [] });
    if (ended) await wipeOutbox(memberId);
  },
});

/** Asks the worker in control to send the signed-in member's waiting items now. */
function askReplay(): void {
  navigator.serviceWorker?.controller?.postMessage({ type: OUTBOX_REPLAY });
}

let readLater: ReturnType<typeof setTimeout> | undefined;
let listLater: ReturnType<typeof setTimeout> | undefined;
/**
 * Items kept within this long of each other cost one read of the list: it reads the queue's
 * entries, bodies and all.
 */
const LIST_READ_MS = 100;

/**
 * Takes one of the worker's outbox messages; anything else is left alone. Only a newly kept item
 * needs the list read from the device; a settled one leaves it by its key, so a flush reads
 * nothing while the worker sends (a read of the queue holds up the worker's own).
 */
export function receiveOutboxResult(data: unknown): void {
  const message = data as Partial<OutboxResult> | null;
  if (message?.type !== 'outbox' || message.result === 'waiting') return;
  if (message.result === 'queued') {
    listLater ??= setTimeout(() => {
      listLater = undefined;
      void useOutboxItems.getState().load();
    }, LIST_READ_MS);
    return;
  }
  if (message.key) settled.add(message.key);
  useOutboxItems.setState((state) => ({
    items: state.items.filter((item) => item.key !== message.key),
  }));
  if (message.result === 'refused')
    useOutboxNotice.setState((state) => ({
      refused: [...state.refused, message.error || NOT_SENT],
    }));
  clearTimeout(readLater);
  readLater = setTimeout(() => refetchShown('online'), SETTLED_READ_MS);
}

const onMessage = (event: MessageEvent) => receiveOutboxResult(event.data);

/** Starts the replay nudges and hears the results while the signed-in shell is shown. */
export function useOutbox(): void {
  useEffect(() => {
    window.addEventListener('online', askReplay);
    window.addEventListener('focus', askReplay);
    navigator.serviceWorker?.addEventListener('message', onMessage);
    void useOutboxItems.getState().load();
    askReplay();
    return () => {
      window.removeEventListener('online', askReplay);
      window.removeEventListener('focus', askReplay);
      navigator.serviceWorker?.removeEventListener('message', onMessage);
    };
  }, []);
}
