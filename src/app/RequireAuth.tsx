import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import type { FromState } from '../features/auth/LoginForm.tsx';
import { useSession } from '../features/auth/store.ts';

/** The sign-in guard: `Authorizing…` while loading, else members in, everyone else to /landing. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useSession((state) => state.status);
  const location = useLocation();
  if (status === 'loading') {
    return (
      <p className="centered-page" role="status">
        Authorizing…
      </p>
    );
  }
  if (status === 'signedOut') {
    const from = `${location.pathname}${location.search}${location.hash}`;
    return <Navigate to="/landing" replace state={{ from } satisfies FromState} />;
  }
  return children;
}
