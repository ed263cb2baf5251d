import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { warmRoute } from './app/warmRoute.ts';
import { AppNotices } from './features/offline/AppNotices.tsx';
import { watchInstall } from './features/offline/install.ts';
import { registerServiceWorker } from './features/offline/registration.ts';
import { watchNetwork } from './features/offline/store.ts';
import { reloadOnChunkFailure } from './features/offline/update.ts';
import './styles/base.css';
import './styles/themes.css';

// These listen from the first moment: the install offer and offline events can come before React.
watchNetwork();
watchInstall();
reloadOnChunkFailure();
// Development serves modules unbundled; only a production build has a worker to register.
if (import.meta.env.PROD && 'serviceWorker' in navigator) registerServiceWorker();
// The route's code and pictures start loading now, beside the session check.
warmRoute(window.location.pathname);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
      <AppNotices />
    </StrictMode>,
  );
}
