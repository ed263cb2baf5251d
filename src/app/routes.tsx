import { type ReactNode, Suspense, lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { LandingPage } from '../features/auth/LandingPage.tsx';
import { useSession } from '../features/auth/store.ts';
import { RequireAuth } from './RequireAuth.tsx';
import { lazyWarm, loadProfilePage, loadShell, loadSignupPage } from './warmRoute.ts';

// Signed-out visitors load only the landing page; everything else arrives when it is needed.
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/ForgotPasswordPage.tsx').then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
// Loaded by warmRoute before the first render on their routes; then they render at once.
const SignupPage = lazyWarm(loadSignupPage, (m) => m.SignupPage);
const Shell = lazyWarm(loadShell, (m) => m.Shell);
const ProfilePage = lazyWarm(loadProfilePage, (m) => m.ProfilePage);
const OwnProfileRedirect = lazyWarm(loadProfilePage, (m) => m.OwnProfileRedirect);
const SettingsPage = lazy(() =>
  import('../features/settings/SettingsPage.tsx').then((m) => ({ default: m.SettingsPage })),
);
const ModerationPage = lazy(() =>
  import('../features/moderation/ModerationPage.tsx').then((m) => ({ default: m.ModerationPage })),
);
const RulesPage = lazy(() =>
  import('../features/moderation/RulesPage.tsx').then((m) => ({ default: m.RulesPage })),
);
const placeholders = () => import('../features/placeholders/Placeholders.tsx');
const SpaceHubPage = lazy(() => placeholders().then((m) => ({ default: m.SpaceHubPage })));
const CreatorsHubPage = lazy(() => placeholders().then((m) => ({ default: m.CreatorsHubPage })));
const InProgressPage = lazy(() => placeholders().then((m) => ({ default: m.InProgressPage })));

function Loading({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <p className="centered-page" role="status">
          Loading…
        </p>
      }
    >
      {children}
    </Suspense>
  );
}

/** `/`: spacehub when signed in; landing when signed out or still loading (docs/product.md "Routes and access"). */
function RootRedirect() {
  const status = useSession((state) => state.status);
  return <Navigate to={status === 'signedIn' ? '/spacehub' : '/landing'} replace />;
}

/** Unknown paths: the guard's home for members, `/` for everyone else. */
function UnknownPath() {
  const status = useSession((state) => state.status);
  if (status === 'loading') return <p className="centered-page">Authorizing…</p>;
  return <Navigate to={status === 'signedIn' ? '/spacehub' : '/'} replace />;
}

export function AppRoutes() {
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route path="/landing" element={<LandingPage />} />
      <Route
        path="/signup"
        element={
          <Loading>
            <SignupPage />
          </Loading>
        }
      />
      <Route
        path="/forgot-password"
        element={
          <Loading>
            <ForgotPasswordPage />
          </Loading>
        }
      />
      <Route
        element={
          <RequireAuth>
            <Loading>
              <Shell />
            </Loading>
          </RequireAuth>
        }
      >
        <Route
          path="/spacehub"
          element={
            <Loading>
              <SpaceHubPage />
            </Loading>
          }
        />
        <Route
          path="/profile"
          element={
            <Loading>
              <OwnProfileRedirect />
            </Loading>
          }
        />
        <Route
          path="/profile/:username"
          element={
            <Loading>
              <ProfilePage />
            </Loading>
          }
        />
        <Route
          path="/settings"
          element={
            <Loading>
              <SettingsPage />
            </Loading>
          }
        />
        <Route
          path="/moderation"
          element={
            <Loading>
              <ModerationPage />
            </Loading>
          }
        />
        <Route
          path="/rules"
          element={
            <Loading>
              <RulesPage />
            </Loading>
          }
        />
        <Route
          path="/store"
          element={
            <Loading>
              <InProgressPage title="Store" />
            </Loading>
          }
        />
        <Route
          path="/events"
          element={
            <Loading>
              <InProgressPage title="Events" />
            </Loading>
          }
        />
        <Route
          path="/blog"
          element={
            <Loading>
              <InProgressPage title="Blog" />
            </Loading>
          }
        />
        <Route
          path="/podcast"
          element={
            <Loading>
              <InProgressPage title="Podcast" />
            </Loading>
          }
        />
        <Route
          path="/creatorshub"
          element={
            <Loading>
              <CreatorsHubPage />
            </Loading>
          }
        />
        <Route
          path="/creators"
          element={
            <Loading>
              <CreatorsHubPage />
            </Loading>
          }
        />
      </Route>
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}
