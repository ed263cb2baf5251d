import { Outlet } from 'react-router-dom';
import { TopBar } from './TopBar.tsx';
import './Shell.css';

/** Every signed-in page: the sticky top bar above the page. */
export function Shell() {
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
