import { useEffect, useState } from 'react';
import { Avatar } from '../../components/Avatar.tsx';
import { Tabs } from '../../components/Tabs.tsx';
import { FriendActions } from '../friends/FriendActions.tsx';
import { RefreshButton } from './NotificationActions.tsx';
import { useNotifications } from './store.ts';

/** The Requests tab: Incoming and Sent sub-lists with their states (docs/product.md "Notification bell", "Notifications panel", "Errors"). */
export function RequestsPanel() {
  const [tab, setTab] = useState<'incoming' | 'sent'>('incoming');
  const incoming = useNotifications((state) => state.incoming);
  const outgoing = useNotifications((state) => state.outgoing);
  const status = useNotifications((state) => state.requestsStatus);
  const error = useNotifications((state) => state.requestsError);
  const refreshRequests = useNotifications((state) => state.refreshRequests);
  const answer = useNotifications((state) => state.answer);

  useEffect(() => {
    void refreshRequests();
  }, [refreshRequests]);

  const list = tab === 'incoming' ? incoming : outgoing;
  return (
    <div className="requests-panel">
      <div className="notification-toolbar">
        <Tabs
          label="Requests"
          tabs={{ incoming: `Incoming (${incoming.length})`, sent: `Sent (${outgoing.length})` }}
          selected={tab}
          onSelect={setTab}
        />
        <RefreshButton label="Refresh requests" onRefresh={() => void refreshRequests()} />
      </div>
      {status === 'loading' && list.length === 0 ? (
        <p className="notification-empty">Loading…</p>
      ) : status === 'error' ? (
        <p className="notification-empty" role="alert">
          Error: {error}
        </p>
      ) : list.length === 0 ? (
        <p className="notification-empty">
          {tab === 'incoming' ? 'No incoming requests.' : 'No sent requests.'}
        </p>
      ) : (
        <ul className="notification-list">
          {list.map((item) => {
            const member = item.user;
            return (
              <li key={item.requestId} className="request-row">
                <Avatar src={member.profileImage} username={member.username} size={32} decorative />
                <p className="notification-text">
                  <strong>@{member.username}</strong>{' '}
                  {tab === 'incoming' ? 'sent you a request' : 'you sent a request'}
                </p>
                <div className="notification-request-actions">
                  <FriendActions
                    status={tab === 'incoming' ? 'incoming' : 'pending'}
                    onAct={(action) => void answer(action, member.id, member.username)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
