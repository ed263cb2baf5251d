import { useEffect, useRef } from 'react';
import { InstallCard } from './InstallCard.tsx';
import { IosInstallHint } from './IosInstallHint.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';
import './offline.css';

/**
 * Notices about the app itself, on every page: a new version, and how to install. They float over
 * the bottom of the page, so the page gets as much room below its end as they take
 * (`--app-notices-space`): whatever they cover can always be scrolled out from under them.
 */
export function AppNotices() {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const notices = ref.current;
    if (!notices || typeof ResizeObserver === 'undefined') return;
    const root = document.documentElement;
    const observer = new ResizeObserver(() => {
      const height = notices.offsetHeight;
      const below = window.innerHeight - notices.getBoundingClientRect().bottom;
      root.style.setProperty('--app-notices-space', height ? `${height + below}px` : '0px');
    });
    observer.observe(notices);
    return () => {
      observer.disconnect();
      root.style.removeProperty('--app-notices-space');
    };
  }, []);
  return (
    <div className="app-notices" ref={ref}>
      <UpdatePrompt />
      <InstallCard />
      <IosInstallHint />
    </div>
  );
}
