import { type RefObject, useEffect, useMemo, useRef, useState } from 'react';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { NOTIFICATION_TYPES, type NotificationType } from '../../contracts/notifications.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { PushOptIn } from '../push/PushOptIn.tsx';
import { useNow } from './hooks.ts';
import { unreadDisplay } from './logic.ts';
import { MarkAllReadButton, RefreshButton } from './NotificationActions.tsx';
import { NotificationList } from './NotificationItem.tsx';
import { RequestsPanel } from './RequestsPanel.tsx';
import { useNotifications } from './store.ts';
import './notifications.css';

const TYPE_LABELS: Record<NotificationType, string> = {
  like: 'Likes',
  comment: 'Comments',
  reply: 'Replies',
  friend_request: 'Friend Requests',
  follow: 'Follows',
  system: 'System',
};

const ALL_ON = Object.fromEntries(NOTIFICATION_TYPES.map((type) => [type, true])) as Record<
  NotificationType,
  boolean
>;

interface NotificationsOverlayProps {
  open: boolean;
  onClose: () => void;
  /** Where focus goes when the panel closes (what opened it may be gone: the bell's dropdown). */
  returnFocus?: RefObject<HTMLElement | null>;
}

/** The full-screen notifications panel (docs/product.md "Notifications panel"), a modal Dialog: focus stays inside, Escape closes. */
export function NotificationsOverlay({ open, onClose, returnFocus }: NotificationsOverlayProps) {
  const [tab, setTab] = useState<'all' | 'requests'>('all');
  const [shown, setShown] = useState(ALL_ON);
  const items = useNotifications((state) => state.items);
  const unread = useNotifications((state) => state.unread);
  const refresh = useNotifications((state) => state.refresh);
  const [confirmingClear, setConfirmingClear] = useState(false);
  const clearButton = useRef<HTMLButtonElement>(null);
  const body = useRef<HTMLDivElement>(null);
  /** Where focus goes once `Clear all notifications?` closes: Clear All, or the emptied list. */
  const afterClear = useRef<HTMLElement | null>(null);
  const now = useNow(open);
  const needsNetwork = useNeedsNetwork();
  const visible = useMemo(() => items.filter((item) => shown[item.type]), [items, shown]);

  useEffect(() => {
    if (open) refresh();
  }, [open, refresh]);

  return (
    <Dialog
      open={open}
      onClose={onClose}
      className="notifications-overlay"
      bodyClassName="notifications-overlay-panel"
      closeLabel="Close notifications"
      returnFocus={returnFocus}
      title={
        <>
          Notifications{' '}
          <span className="notification-unread">({unreadDisplay(unread)} unread)</span>
        </>
      }
    >
      <PushOptIn />
      <div className="notification-toolbar">
        <Tabs
          label="Notification lists"
          tabs={{ all: 'All', requests: 'Requests' }}
          selected={tab}
          onSelect={setTab}
        />
        {tab === 'all' && (
          <div className="notification-toolbar-actions">
            <RefreshButton label="Refresh notifications" onRefresh={refresh} />
            <MarkAllReadButton label="Mark All Read" />
            <button
              type="button"
              className="button ghost"
              ref={clearButton}
              {...needsNetwork(items.length === 0)}
              onClick={() => {
                afterClear.current = clearButton.current;
                setConfirmingClear(true);
              }}
            >
              Clear All
            </button>
          </div>
        )}
      </div>
      {tab === 'all' ? (
        <div className="notifications-overlay-body" ref={body} tabIndex={-1}>
          <fieldset className="notification-filters">
            <legend>Filter Types</legend>
            {NOTIFICATION_TYPES.map((type) => (
              <label key={type} className="notification-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={shown[type]}
                  onChange={(event) =>
                    setShown((current) => ({ ...current, [type]: event.target.checked }))
                  }
                />
                <span>{TYPE_LABELS[type]}</span>
              </label>
            ))}
          </fieldset>
          <NotificationList
            items={visible}
            label="All notifications"
            now={now}
            variant="panel"
            onNavigate={onClose}
          />
        </div>
      ) : (
        <RequestsPanel />
      )}
      <ClearAllDialog
        open={confirmingClear}
        onClose={() => setConfirmingClear(false)}
        onCleared={() => {
          afterClear.current = body.current;
        }}
        returnFocus={afterClear}
      />
    </Dialog>
  );
}

/**
 * `Clear all notifications?` (docs/product.md "Notifications panel"): asked first rather than
 * offering Undo, since nothing is gone until the member says so, on any of their devices.
 */
function ClearAllDialog({
  open,
  onClose,
  onCleared,
  returnFocus,
}: {
  open: boolean;
  onClose: () => void;
  onCleared: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const clearAll = useNotifications((state) => state.clearAll);
  const needsNetwork = useNeedsNetwork();
  return (
    <Dialog
      open={open}
      title="Clear all notifications?"
      onClose={onClose}
      returnFocus={returnFocus}
    >
      <p>This removes every notification, on all your devices. It can’t be undone.</p>
      <DialogActions
        onCancel={onClose}
        confirm={{
          label: 'Clear All',
          danger: true,
          ...needsNetwork(),
          onClick: () => {
            onCleared();
            onClose();
            void clearAll();
          },
        }}
      />
    </Dialog>
  );
}
