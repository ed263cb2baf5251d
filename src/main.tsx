import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { warmRoute } from './app/warmRoute.ts';
import { startSession } from './features/auth/store.ts';
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
// Development serves modules unbundled; only a production build has a worker to register. In a
// task of its own: the start's first task is long enough with the app's modules.
if (import.meta.env.PROD && 'serviceWorker' in navigator) setTimeout(registerServiceWorker);
// The session check and the route's code and pictures start now. With the worker in control the
// route's code comes from its cache in a moment, and the first render waits for it: a route that
// suspended on it would show its fallback, then hold its content back for React's reveal throttle
// (300 ms) even after the saved session had answered. So does a document that shows the route's
// first screen already. Else, from the network, the wait would hold back the first paint: the page
// renders at once.
void startSession();
const routeCode = warmRoute(window.location.pathname);
const root = document.getElementById('root');
const firstRender =
  navigator.serviceWorker?.controller || root?.firstChild ? routeCode : Promise.resolve();

// Rendered as a transition, which yields to the browser every few milliseconds instead of holding
// the page for the whole render: a first screen in the document is already painted and stays
// until React commits over it.
if (root) {
  void firstRender.then(() =>
    startTransition(() =>
      createRoot(root).render(
        <StrictMode>
          <div className="app-page">
            <App />
          </div>
          <AppNotices />
        </StrictMode>,
      ),
    ),
  );
}
