import { OutboxNotice } from './OutboxNotice.tsx';
import { OFFLINE_BANNER, OFFLINE_REASON, OFFLINE_REASON_ID, useOffline } from './store.ts';
import './offline.css';

/**
 * Under the top bar on every signed-in page while the server cannot be reached, and the changes the
 * offline outbox could not send once it was back.
 */
export function OfflineBanner() {
  const offline = useOffline();
  // The live region stays in the page so that the banner's arrival is announced.
  return (
    <div className="offline-region" role="status">
      {offline && (
        <p className="offline-banner">
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            width="18"
            height="18"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          >
            <path d="M2 2l20 20M8.5 16.5a5 5 0 0 1 7 0M5 12.9a10 10 0 0 1 5.2-2.7M19 12.9a10 10 0 0 0-2.3-1.6M2 8.8a15 15 0 0 1 4.2-2.6M10.7 5.1A15 15 0 0 1 22 8.8M12 20h.01" />
          </svg>
          {OFFLINE_BANNER}
          <span id={OFFLINE_REASON_ID} hidden>
            {OFFLINE_REASON}
          </span>
        </p>
      )}
      <OutboxNotice />
    </div>
  );
}
