import { useEffect } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { connectSessionAcrossTabs, startSession, useSession } from '../features/auth/store.ts';
import { useTheme } from '../features/theme/store.ts';
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
  const user = useSession((state) => state.user);
  const status = useSession((state) => state.status);
  useEffect(() => {
    if (status !== 'loading') useTheme.getState().loadFor(user);
  }, [user, status]);
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
