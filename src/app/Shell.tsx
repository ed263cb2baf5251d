import { Outlet } from 'react-router-dom';
import { OfflineBanner } from '../features/offline/OfflineBanner.tsx';
import { TopBar } from './TopBar.tsx';
import { useRealtime } from './useRealtime.ts';
import './Shell.css';

/**
 * Every signed-in page: the sticky top bar and, while offline, the banner under it above the page;
 * the live connection behind them.
 */
export function Shell() {
  useRealtime();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <OfflineBanner />
      <Outlet />
    </div>
  );
}
