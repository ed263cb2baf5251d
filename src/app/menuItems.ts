export interface MenuItem {
  to: string;
  label: string;
  /** Other paths at which this page counts as the current one. */
  alsoCurrentAt?: readonly string[];
}

/**
 * The menu's pages (docs/product.md "Top bar and menu"), in order; moderators also have Reports
 * (docs/product.md "Moderation").
 */
function menuItems(username: string, moderator = false): MenuItem[] {
  return [
    { to: '/spacehub', label: 'SpaceHub', alsoCurrentAt: ['/'] },
    { to: username ? `/profile/${encodeURIComponent(username)}` : '/profile', label: 'Profile' },
    { to: '/settings', label: 'Settings' },
    ...(moderator ? [{ to: '/moderation', label: 'Reports' }] : []),
    { to: '/store', label: 'Store' },
    { to: '/events', label: 'Events' },
    { to: '/blog', label: 'Blog' },
    { to: '/podcast', label: 'Podcast' },
    { to: '/creatorshub', label: 'CreatorsHub', alsoCurrentAt: ['/creators'] },
  ];
}

/** The menu leaves out the page the member is on. */
export function visibleMenuItems(
  username: string,
  pathname: string,
  moderator = false,
): MenuItem[] {
  const path = decodeURIComponent(pathname.replace(/\/+$/, '') || '/');
  return menuItems(username, moderator).filter(
    (item) => decodeURIComponent(item.to) !== path && !item.alsoCurrentAt?.includes(path),
  );
}
