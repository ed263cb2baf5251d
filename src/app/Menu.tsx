import { useCallback, useId, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useSession } from '../features/auth/store.ts';
import { useInstallAction } from '../features/offline/install.ts';
import { visibleMenuItems } from './menuItems.ts';
import { useDismiss } from '../components/useDismiss.ts';

export function Menu() {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const username = useSession((state) => state.user?.username ?? '');
  const logout = useSession((state) => state.logout);
  const install = useInstallAction();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);
  useDismiss(ref, open, close);

  const onLogout = async () => {
    setOpen(false);
    await logout();
    void navigate('/landing', { replace: true });
  };

  return (
    <div className="menu" ref={ref}>
      <button
        ref={buttonRef}
        type="button"
        className="icon-button"
        aria-label="Menu"
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24">
          <path fill="currentColor" d="M3 6h18v2H3V6Zm0 5h18v2H3v-2Zm0 5h18v2H3v-2Z" />
        </svg>
      </button>
      {open && (
        <nav className="menu-panel" id={listId} aria-label="Pages">
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
                  <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
                    <path
                      fill="currentColor"
                      d="M11 3h2v9.17l3.59-3.58L18 10l-6 6-6-6 1.41-1.41L11 12.17V3ZM5 19h14v2H5v-2Z"
                    />
                  </svg>
                  Install Orbit
                </button>
              </li>
            )}
            {visibleMenuItems(username, pathname).map((item) => (
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
    </div>
  );
}
