import { useEffect } from 'react';
import { Link } from 'react-router-dom';
import { AVATAR_PRELOAD_REMOVE_MS, PRODUCT_NAME } from '../lib/constants.ts';
import { Avatar } from '../components/Avatar.tsx';
import { avatarUrl } from '../components/avatarUrl.ts';
import { Logo } from '../components/Logo.tsx';
import { useSession } from '../features/auth/store.ts';
import { OutboxCount } from '../features/offline/OutboxCount.tsx';
import { HeaderSearch } from '../features/search/HeaderSearch.tsx';
import { ThemeToggle } from '../features/theme/ThemeToggle.tsx';
import { Bell } from './Bell.tsx';
import { Menu } from './Menu.tsx';

/** Warms the cache for the member's avatar, then removes the hint (docs/product.md "Limits and timings": after 5 s). */
function useAvatarPreload(href: string) {
  useEffect(() => {
    // The document or the start may have asked for it already (src/app/warmRoute.ts).
    const asked = [...document.head.querySelectorAll('link[rel="preload"]')].some(
      (link) => link.getAttribute('href') === href,
    );
    if (!href || asked) return;
    const link = document.createElement('link');
    link.rel = 'preload';
    link.as = 'image';
    link.href = href;
    document.head.appendChild(link);
    const timer = setTimeout(() => link.remove(), AVATAR_PRELOAD_REMOVE_MS);
    return () => {
      clearTimeout(timer);
      link.remove();
    };
  }, [href]);
}

export function TopBar() {
  const user = useSession((state) => state.user);
  const username = user?.username ?? '';
  useAvatarPreload(user?.profileImage ? avatarUrl(user.profileImage) : '');
  return (
    <header className="top-bar">
      <Link to="/spacehub" className="top-bar-logo" aria-label={`${PRODUCT_NAME} home`}>
        <Logo size={40} />
        <span className="top-bar-name">{PRODUCT_NAME}</span>
      </Link>
      <HeaderSearch />
      <div className="top-bar-actions">
        <OutboxCount />
        <ThemeToggle />
        <Bell />
        <Link
          to={username ? `/profile/${encodeURIComponent(username)}` : '/profile'}
          className="top-bar-user"
          aria-label={`Profile of ${username || 'Guest'}`}
        >
          <Avatar src={user?.profileImage ?? ''} username={username} size={36} decorative />
          <span className="top-bar-username">{username || 'Guest'}</span>
        </Link>
        <Menu />
      </div>
    </header>
  );
}
