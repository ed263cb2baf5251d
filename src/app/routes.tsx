import { Navigate, Route, Routes } from 'react-router-dom';
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.tsx';
import { LandingPage } from '../features/auth/LandingPage.tsx';
import { SignupPage } from '../features/auth/SignupPage.tsx';
import { useSession } from '../features/auth/store.ts';
import { CreatorsHubPage, InProgressPage, SpaceHubPage } from '../features/placeholders/Placeholders.tsx';
import { OwnProfileRedirect, ProfilePage } from '../features/profile/ProfilePage.tsx';
import { SettingsPage } from '../features/settings/SettingsPage.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { Shell } from './Shell.tsx';

/** `/`: spacehub when signed in; landing when signed out or still loading (SPEC §2.1). */
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
      <Route path="/signup" element={<SignupPage />} />
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route
        element={
          <RequireAuth>
            <Shell />
          </RequireAuth>
        }
      >
        <Route path="/spacehub" element={<SpaceHubPage />} />
        <Route path="/profile" element={<OwnProfileRedirect />} />
        <Route path="/profile/:username" element={<ProfilePage />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/store" element={<InProgressPage title="Store" />} />
        <Route path="/events" element={<InProgressPage title="Events" />} />
        <Route path="/blog" element={<InProgressPage title="Blog" />} />
        <Route path="/podcast" element={<InProgressPage title="Podcast" />} />
        <Route path="/creatorshub" element={<CreatorsHubPage />} />
        <Route path="/creators" element={<CreatorsHubPage />} />
      </Route>
      <Route path="*" element={<UnknownPath />} />
    </Routes>
  );
}
