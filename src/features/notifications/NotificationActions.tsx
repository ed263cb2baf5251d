import { useNeedsNetwork } from '../offline/store.ts';
import { useNotifications } from './store.ts';

/**
 * The actions the bell dropdown and the full-screen panel share. One component per action keeps
 * their words and shape the same in both places.
 */
export function MarkAllReadButton() {
  const unread = useNotifications((state) => state.unread);
  const markAllRead = useNotifications((state) => state.markAllRead);
  const needsNetwork = useNeedsNetwork();
  return (
    <button
      type="button"
      className="button ghost"
      {...needsNetwork(unread === 0)}
      onClick={() => void markAllRead()}
    >
      Mark all read
    </button>
  );
}

/** ↻ Refresh; `label` says what it refreshes when the panel holds more than one list. */
export function RefreshButton({ label, onRefresh }: { label?: string; onRefresh: () => void }) {
  const needsNetwork = useNeedsNetwork();
  return (
    <button
      type="button"
      className="button ghost"
      aria-label={label}
      {...needsNetwork()}
      onClick={onRefresh}
    >
      <span aria-hidden="true">↻ </span>Refresh
    </button>
  );
}
