import { Link } from 'react-router-dom';
import { Avatar } from '../../components/Avatar.tsx';
import type { Notification } from '../../contracts/notifications.ts';
import { RULES_PATH } from '../../contracts/safety.ts';
import { FriendActions } from '../friends/FriendActions.tsx';
import { useAnswerWaiting } from '../friends/waiting.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { WaitingMark } from '../offline/WaitingMark.tsx';
import { relativeTime } from './logic.ts';
import { useNotifications } from './store.ts';
import { usePendingRequests } from './usePending.ts';

interface ItemProps {
  item: Notification;
  now: number;
  /** The request is still pending: show accept and decline. */
  pending: boolean;
  variant: 'bell' | 'panel';
  onNavigate: () => void;
}

function RequestActions({ item }: { item: Notification }) {
  const answer = useNotifications((state) => state.answer);
  const actor = item.actor;
  if (!actor) return null;
  return (
    <div className="notification-request-actions">
      <FriendActions
        status="incoming"
        onAct={(action) => void answer(action, actor.id, actor.username)}
      />
    </div>
  );
}

/** One notification, in the bell dropdown (§2.6) or the full panel (§2.7). */
function NotificationItem({ item, now, pending, variant, onNavigate }: ItemProps) {
  const markRead = useNotifications((state) => state.markRead);
  const clear = useNotifications((state) => state.clear);
  const needsNetwork = useNeedsNetwork();
  const actor = item.actor;
  // A request answered offline: the answer waits to be sent.
  const answerWaiting = useAnswerWaiting(item.type === 'friend_request' ? actor?.id : undefined);
  const profile = actor ? `/profile/${encodeURIComponent(actor.username)}` : null;
  return (
    <li className={`notification-item${item.read ? '' : ' unread'}`} data-type={item.type}>
      {variant === 'panel' &&
        (profile && actor ? (
          <Link
            to={profile}
            className="notification-avatar"
            onClick={onNavigate}
            aria-label={`@${actor.username}'s profile`}
          >
            <Avatar src={actor.profileImage} username={actor.username} size={40} decorative />
          </Link>
        ) : (
          <span className="avatar notification-avatar system" aria-hidden="true">
            ★
          </span>
        ))}
      <div className="notification-main">
        <p className="notification-text">
          {actor && <strong>@{actor.username}</strong>}
          {item.message}
        </p>
        <div className="notification-meta">
          <time dateTime={item.createdAt}>{relativeTime(item.createdAt, now)}</time>
          {/* A removal notice says where the rules are, in the panel as in the bell. */}
          {item.link === RULES_PATH && (
            <Link to={RULES_PATH} onClick={onNavigate}>
              Read the rules
            </Link>
          )}
          {variant === 'bell' && (
            <>
              {item.link !== RULES_PATH && (
                <Link to={item.link || '/'} onClick={onNavigate}>
                  View
                </Link>
              )}
              {!item.read && (
                <button
                  type="button"
                  className="link-button"
                  {...needsNetwork()}
                  onClick={() => void markRead(item.id)}
                >
                  Mark read
                </button>
              )}
            </>
          )}
        </div>
        {answerWaiting && <WaitingMark />}
        {pending && <RequestActions item={item} />}
      </div>
      {variant === 'panel' && (
        <button
          type="button"
          className="notification-dismiss close-button"
          aria-label="Dismiss"
          {...needsNetwork()}
          onClick={() => void clear(item.id)}
        >
          ×
        </button>
      )}
    </li>
  );
}

/** The notifications of the bell or the panel, newest first; `No notifications yet.` when empty. */
export function NotificationList({
  items,
  label,
  ...shared
}: Omit<ItemProps, 'item' | 'pending'> & { items: Notification[]; label: string }) {
  const pending = usePendingRequests();
  if (items.length === 0) return <p className="notification-empty">No notifications yet.</p>;
  return (
    <ul className="notification-list" aria-label={label}>
      {items.map((item) => (
        <NotificationItem
          key={item.id}
          item={item}
          pending={item.type === 'friend_request' && pending.has(item.requestId ?? '')}
          {...shared}
        />
      ))}
    </ul>
  );
}
