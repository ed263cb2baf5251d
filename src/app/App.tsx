import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { connectSessionAcrossTabs, startSession, useSession } from '../features/auth/store.ts';
import { connectThemeAcrossTabs, useTheme } from '../features/theme/store.ts';
import { connectOfflineSession } from '../features/offline/offlineSession.ts';
import { ErrorBoundary } from './ErrorBoundary.tsx';
import { AppRoutes } from './routes.tsx';

/** Starts the session once and keeps the theme in step with whoever is signed in. */
function useSessionLifecycle() {
  useEffect(() => {
    const disconnect = connectSessionAcrossTabs();
    void startSession();
    return disconnect;
  }, []);
  useEffect(() => connectOfflineSession(), []);
  useEffect(() => connectThemeAcrossTabs(), []);
  // The theme is read from the member when the member changes; after that the theme store keeps
  // it (the toggle, Settings, the other tabs, the server at focus).
  const userId = useSession((state) => state.user?.id ?? null);
  const status = useSession((state) => state.status);
  useEffect(() => {
    if (status !== 'loading') useTheme.getState().loadFor(useSession.getState().user);
  }, [userId, status]);
}

export function App() {
  useSessionLifecycle();
  return (
    <ErrorBoundary>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
