import { Link, useLocation, useNavigate } from 'react-router-dom';
import { Icon } from '../components/Icon.tsx';
import { useSession } from '../features/auth/store.ts';
import { useInstallAction } from '../features/offline/installActions.ts';
import { visibleMenuItems } from './menuItems.ts';
import { useMenuButton } from '../components/useMenuButton.ts';

/**
 * The top bar's menu (docs/product.md "Top bar and menu"): a disclosure of the site's pages, so
 * its entries stay links and buttons; arrow keys, Home and End move between them.
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

  const onLogout = async () => {
    setOpen(false);
    await logout();
    void navigate('/landing', { replace: true });
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
    </div>
  );
}
