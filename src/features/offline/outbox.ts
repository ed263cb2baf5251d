/**
 * The page's side of the offline outbox (docs/decisions.md "The offline outbox"): the worker keeps
 * a write that could not reach the server and sends it when the network is back. Where the browser
 * has no Background Sync, only the page knows when that is, so the signed-in shell asks the worker
 * to send the member's waiting items at start, when the browser goes online and on focus.
 */
import { useEffect } from 'react';
import { OUTBOX_REPLAY } from '../../contracts/constants.ts';

/** Asks the worker in control to send the signed-in member's waiting items now. */
function askReplay(): void {
  navigator.serviceWorker?.controller?.postMessage({ type: OUTBOX_REPLAY });
}

/** Starts the replay nudges while the signed-in shell is shown. */
export function useOutbox(): void {
  useEffect(() => {
    window.addEventListener('online', askReplay);
    window.addEventListener('focus', askReplay);
    askReplay();
    return () => {
      window.removeEventListener('online', askReplay);
      window.removeEventListener('focus', askReplay);
    };
  }, []);
}
