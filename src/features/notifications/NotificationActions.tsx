import { NetworkButton } from '../offline/NetworkButton.tsx';
import { useNotifications } from './store.ts';

/**
 * The actions the bell dropdown and the full-screen panel share. One component per action keeps
 * their words and shape the same in both places.
 */
/** `label`: the bell says `Mark all read`, the full panel `Mark All Read` (docs/product.md). */
export function MarkAllReadButton({ label = 'Mark all read' }: { label?: string }) {
  const unread = useNotifications((state) => state.unread);
  const markAllRead = useNotifications((state) => state.markAllRead);
  return (
    <NetworkButton
      className="button ghost"
      disabled={unread === 0}
      onClick={() => void markAllRead()}
    >
      {label}
    </NetworkButton>
  );
}

/** ↻ Refresh; `label` says what it refreshes when the panel holds more than one list. */
export function RefreshButton({ label, onRefresh }: { label?: string; onRefresh: () => void }) {
  return (
    <NetworkButton className="button ghost" aria-label={label} onClick={onRefresh}>
      <span aria-hidden="true">↻ </span>Refresh
    </NetworkButton>
  );
}
