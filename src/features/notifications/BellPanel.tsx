import { useRef, useState } from 'react';
import { useFriends } from '../friends/store.ts';
import { PushOptIn } from '../push/PushOptIn.tsx';
import { useFocusTrap, useNow } from './hooks.ts';
import { MarkAllReadButton, RefreshButton } from './NotificationActions.tsx';
import { NotificationItem } from './NotificationItem.tsx';
import { RequestsPanel } from './RequestsPanel.tsx';
import { useNotifications } from './store.ts';
import { usePendingRequests } from './usePending.ts';
import './notifications.css';

interface BellPanelProps {
  onClose: () => void;
  onViewAll: () => void;
}

/** The bell dropdown (docs/product.md "Notification bell"): All and Requests tabs. */
export function BellPanel({ onClose, onViewAll }: BellPanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [tab, setTab] = useState<'all' | 'requests'>('all');
  const items = useNotifications((state) => state.items);
  const refresh = useNotifications((state) => state.refresh);
  const incomingCount = useFriends((state) => state.counts.incoming);
  const pending = usePendingRequests();
  const now = useNow(true);
  useFocusTrap(ref, true);

  return (
    <div
      className="bell-panel notifications-dropdown"
      role="dialog"
      aria-label="Notifications"
      ref={ref}
    >
      <div className="notification-tabs" role="tablist" aria-label="Notification lists">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'all'}
          onClick={() => setTab('all')}
        >
          All
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'requests'}
          onClick={() => setTab('requests')}
        >
          Requests ({incomingCount})
        </button>
      </div>
      {tab === 'all' ? (
        <>
          <div className="notification-toolbar">
            <RefreshButton onRefresh={refresh} />
            <MarkAllReadButton />
          </div>
          {items.length === 0 ? (
            <p className="notification-empty">No notifications yet.</p>
          ) : (
            <ul className="notification-list" aria-label="Notifications list">
              {items.map((item) => (
                <NotificationItem
                  key={item._id}
                  item={item}
                  now={now}
                  pending={item.type === 'friend_request' && pending.has(item.requestId ?? '')}
                  variant="bell"
                  onNavigate={onClose}
                />
              ))}
            </ul>
          )}
        </>
      ) : (
        <RequestsPanel />
      )}
      <PushOptIn />
      <div className="notification-footer">
        <button type="button" className="button ghost wide" onClick={onViewAll}>
          View All
        </button>
      </div>
    </div>
  );
}
