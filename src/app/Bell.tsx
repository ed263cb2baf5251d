import { useCallback, useEffect, useRef, useState } from 'react';
import { Icon } from '../components/Icon.tsx';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../features/auth/store.ts';
import { useFriends } from '../features/friends/store.ts';
import { BellPanel } from '../features/notifications/BellPanel.tsx';
import { badgeText } from '../features/notifications/logic.ts';
import { NotificationsOverlay } from '../features/notifications/NotificationsOverlay.tsx';
import { useNotifications } from '../features/notifications/store.ts';
import { usePushLifecycle } from '../features/push/usePushLifecycle.ts';
import { useDismiss } from '../components/useDismiss.ts';

/** `?notifications=open` (the app's Notifications shortcut) opens the full-screen panel once. */
function useOpenFromUrl(open: () => void) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('notifications') === 'open';
  useEffect(() => {
    if (!requested) return;
    open();
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('notifications');
        return next;
      },
      { replace: true },
    );
  }, [requested, open, setParams]);
}

/** The notification bell: badge, dropdown (docs/product.md "Notification bell") and the full-screen panel ("Notifications panel"). */
export function Bell() {
  const [open, setOpen] = useState(false);
  const [overlay, setOverlay] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const unread = useNotifications((state) => state.unread);
  const refresh = useNotifications((state) => state.refresh);
  const incoming = useFriends((state) => state.counts.incoming);
  const unreadRequests = useNotifications(
    (state) => state.items.filter((item) => item.type === 'friend_request' && !item.read).length,
  );
  const badge = badgeText(unread, incoming, unreadRequests);
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, []);
  useDismiss(ref, open, close);
  const closeOverlay = useCallback(() => setOverlay(false), []);
  const openOverlay = useCallback(() => setOverlay(true), []);
  useOpenFromUrl(openOverlay);
  const userId = useSession((state) => state.user?.id);
  usePushLifecycle(userId);
  return (
    <>
      <div className="bell" ref={ref}>
        <button
          ref={button}
          type="button"
          className="icon-button"
          aria-label={badge ? `Notifications, ${badge} unread` : 'Notifications'}
          aria-expanded={open}
          aria-haspopup="dialog"
          onClick={() => {
            if (!open) refresh();
            setOpen((value) => !value);
          }}
        >
          <Icon
            size={22}
            path="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3a1.5 1.5 0 0 0-3 0v1.16A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
          />
          {badge && (
            <span className="bell-badge" aria-hidden="true" data-testid="bell-badge">
              {badge}
            </span>
          )}
        </button>
        {open && (
          <BellPanel
            onClose={close}
            onViewAll={() => {
              setOpen(false);
              setOverlay(true);
            }}
          />
        )}
      </div>
      <NotificationsOverlay open={overlay} onClose={closeOverlay} returnFocus={button} />
    </>
  );
}
