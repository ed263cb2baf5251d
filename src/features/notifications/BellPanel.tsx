import { useRef, useState } from 'react';
import { Tabs } from '../../components/Tabs.tsx';
import { useFriends } from '../friends/store.ts';
import { PushOptIn } from '../push/PushOptIn.tsx';
import { useFocusTrap, useNow } from './hooks.ts';
import { MarkAllReadButton, RefreshButton } from './NotificationActions.tsx';
import { NotificationList } from './NotificationItem.tsx';
import { RequestsPanel } from './RequestsPanel.tsx';
import { useNotifications } from './store.ts';
import './notifications.css';

interface BellPanelProps {
  onClose: () => void;
  onViewAll: () => void;
}

/**
 * The bell dropdown (docs/product.md "Notification bell"): All and Requests tabs, the list
 * scrolling between them and the footer's `View All`, which stays in view.
 */
export function BellPanel({ onClose, onViewAll }: BellPanelProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [tab, setTab] = useState<'all' | 'requests'>('all');
  const items = useNotifications((state) => state.items);
  const refresh = useNotifications((state) => state.refresh);
  const incomingCount = useFriends((state) => state.counts.incoming);
  const now = useNow(true);
  useFocusTrap(ref, true);

  return (
    <div
      className="bell-panel notifications-dropdown"
      role="dialog"
      aria-label="Notifications"
      ref={ref}
    >
      <Tabs
        label="Notification lists"
        tabs={{ all: 'All', requests: `Requests (${incomingCount})` }}
        selected={tab}
        onSelect={setTab}
      />
      <div className="bell-panel-scroll">
        {tab === 'all' ? (
          <>
            <div className="notification-toolbar">
              <RefreshButton onRefresh={refresh} />
              <MarkAllReadButton />
            </div>
            <NotificationList
              items={items}
              label="Notifications list"
              now={now}
              variant="bell"
              onNavigate={onClose}
            />
          </>
        ) : (
          <RequestsPanel />
        )}
        <PushOptIn />
      </div>
      <div className="notification-footer">
        <button type="button" className="button ghost wide" onClick={onViewAll}>
          View All
        </button>
      </div>
    </div>
  );
}
