import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Dialog, DialogActions } from '../components/Dialog.tsx';
import { Icon } from '../components/Icon.tsx';
import { useSession } from '../features/auth/store.ts';
import { useInstallAction } from '../features/offline/installActions.ts';
import { useOutboxItems } from '../features/offline/outbox.ts';
import { logoutQuestion } from '../features/offline/outboxWords.ts';
import { visibleMenuItems } from './menuItems.ts';
import { useMenuButton } from '../components/useMenuButton.ts';

/**
 * The top bar's menu (docs/product.md "Top bar and menu"): a disclosure of the site's pages, so
 * its entries stay links and buttons; arrow keys, Home and End move between them. Logout with
 * changes waiting in the offline outbox asks first, as they go with the member's other copies
 * (docs/decisions.md "The offline outbox").
 */
export function Menu() {
  const { open, setOpen, close, buttonProps, popupProps } = useMenuButton<HTMLElement>({
    items: 'a, button',
  });
  const username = useSession((state) => state.user?.username ?? '');
  const moderator = useSession((state) => state.user?.isModerator ?? false);
  const logout = useSession((state) => state.logout);
  const install = useInstallAction();
  const { pathname } = useLocation();
  const navigate = useNavigate();

  const [unsent, setUnsent] = useState(0);
  const [leaving, setLeaving] = useState(false);

  const leave = async () => {
    setLeaving(true);
    await logout();
    void navigate('/landing', { replace: true });
  };
  const onLogout = async () => {
    setOpen(false);
    // Read from the device, not from the last count: the worker may have kept or sent items since.
    await useOutboxItems.getState().load();
    const waiting = useOutboxItems.getState().items.length;
    if (waiting > 0) setUnsent(waiting);
    else await leave();
  };

  return (
    <div className="menu">
      <button {...buttonProps} aria-label="Menu">
        <Icon size={24} path="M3 6h18v2H3V6Zm0 5h18v2H3v-2Zm0 5h18v2H3v-2Z" />
      </button>
      {open && (
        <nav className="menu-panel" aria-label="Pages" {...popupProps}>
          <ul>
            {install && (
              // First, where a thumb finds it on a phone.
              <li>
                <button
                  type="button"
                  className="menu-install"
                  onClick={() => {
                    // Focus goes back to the menu button, not lost with the closed menu.
                    close();
                    install();
                  }}
                >
                  <Icon
                    size={20}
                    path="M11 3h2v9.17l3.59-3.58L18 10l-6 6-6-6 1.41-1.41L11 12.17V3ZM5 19h14v2H5v-2Z"
                  />
                  Install Orbit
                </button>
              </li>
            )}
            {visibleMenuItems(username, pathname, moderator).map((item) => (
              <li key={item.label}>
                <Link to={item.to} onClick={() => setOpen(false)}>
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <button type="button" className="menu-logout" onClick={() => void onLogout()}>
                Logout
              </button>
            </li>
          </ul>
        </nav>
      )}
      <Dialog
        open={unsent > 0}
        title={logoutQuestion(unsent)}
        onClose={() => setUnsent(0)}
        returnFocus={buttonProps.ref}
      >
        <p>
          {unsent === 1 ? 'It was' : 'They were'} made offline and would be sent from this device
          when it’s back online.
        </p>
        <DialogActions
          onCancel={() => setUnsent(0)}
          cancelDisabled={leaving}
          confirm={{
            label: 'Log out',
            danger: true,
            busy: leaving,
            disabled: leaving,
            onClick: () => void leave(),
          }}
        />
      </Dialog>
    </div>
  );
}
