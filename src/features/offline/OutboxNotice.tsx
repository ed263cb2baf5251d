import { useOutboxNotice } from './outbox.ts';

/**
 * The changes the server refused when the offline outbox sent them, in its words, in one notice
 * until dismissed (docs/product.md "Offline, install and push").
 */
export function OutboxNotice() {
  const refused = useOutboxNotice((state) => state.refused);
  const dismiss = useOutboxNotice((state) => state.dismiss);
  if (refused.length === 0) return null;
  return (
    <div className="notice outbox-notice">
      <div className="notice-text">
        <p>
          {refused.length === 1
            ? 'A change made offline could not be sent:'
            : `${refused.length} changes made offline could not be sent:`}
        </p>
        <ul>
          {refused.map((words, index) => (
            <li key={index}>{words}</li>
          ))}
        </ul>
      </div>
      <button
        type="button"
        className="icon-button notice-close"
        aria-label="Dismiss"
        onClick={dismiss}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </div>
  );
}
