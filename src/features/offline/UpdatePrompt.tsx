import { useUpdate } from './update.ts';

/** Offers a new version once its worker is waiting; Reload starts it (see registration.ts). */
export function UpdatePrompt() {
  const available = useUpdate((state) => state.available);
  const activate = useUpdate((state) => state.activate);
  const dismiss = useUpdate((state) => state.dismiss);
  return (
    <div className="notice-region" role="status">
      {available && activate && (
        <div className="notice">
          <p className="notice-text">A new version is available</p>
          <button type="button" className="button primary" onClick={activate}>
            Reload
          </button>
          <button
            type="button"
            className="icon-button notice-close"
            aria-label="Not now"
            onClick={dismiss}
          >
            <span aria-hidden="true">✕</span>
          </button>
        </div>
      )}
    </div>
  );
}
