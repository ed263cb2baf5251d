import { Outlet } from 'react-router-dom';
import { TopBar } from './TopBar.tsx';
import { useRealtime } from './useRealtime.ts';
import './Shell.css';

/** Every signed-in page: the sticky top bar above the page, and the live connection behind it. */
export function Shell() {
  useRealtime();
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <Outlet />
    </div>
  );
}
