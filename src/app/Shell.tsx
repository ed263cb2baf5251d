import { Outlet } from 'react-router-dom';
import { OfflineBanner } from '../features/offline/OfflineBanner.tsx';
import { useOutbox } from '../features/offline/outbox.ts';
import { TopBar } from './TopBar.tsx';
import { useRealtime } from './useRealtime.ts';
import './Shell.css';

/**
 * Every signed-in page: the sticky top bar and, while offline, the banner under it above the page;
 * the live connection and the
 * offline outbox's nudges behind them.
 */
export function Shell() {
  useRealtime();
  useOutbox();
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
