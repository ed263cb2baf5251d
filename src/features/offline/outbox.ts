/**
 * The page's side of the offline outbox (docs/decisions.md "The offline outbox"): the worker keeps
 * a write that could not reach the server and sends it when the network is back. Where the browser
 * has no Background Sync, only the page knows when that is, so the signed-in shell asks the worker
 * to send the member's waiting items at start, when the browser goes online and on focus; the
 * worker's word on each item comes back as an `outbox` message.
 */
import { useEffect } from 'react';
import { OUTBOX_REPLAY, type OutboxResult } from '../../contracts/constants.ts';

type Listener = (result: OutboxResult) => void;
const listeners = new Set<Listener>();

/** Hears what became of each waiting item; answers a function that stops. */
export function onOutboxResult(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const isResult = (data: unknown): data is OutboxResult =>
  typeof data === 'object' &&
  data !== null &&
  (data as { type?: unknown }).type === 'outbox' &&
  typeof (data as { key?: unknown }).key === 'string';

/** Asks the worker in control to send the signed-in member's waiting items now. */
export function askReplay(): void {
  navigator.serviceWorker?.controller?.postMessage({ type: OUTBOX_REPLAY });
}

/** Starts the replay nudges and the results' delivery while the signed-in shell is shown. */
export function useOutbox(): void {
  useEffect(() => {
    const container = navigator.serviceWorker as ServiceWorkerContainer | undefined;
    if (!container) return;
    const hear = (event: MessageEvent) => {
      if (!isResult(event.data)) return;
      for (const listener of listeners) listener(event.data);
    };
    container.addEventListener('message', hear);
    window.addEventListener('online', askReplay);
    window.addEventListener('focus', askReplay);
    askReplay();
    return () => {
      container.removeEventListener('message', hear);
      window.removeEventListener('online', askReplay);
      window.removeEventListener('focus', askReplay);
    };
  }, []);
}
