import { Navigate, useLocation } from 'react-router-dom';
import { PRODUCT_NAME, TAGLINE } from '../../lib/constants.ts';
import { Logo } from '../../components/Logo.tsx';
import { LoginForm } from './LoginForm.tsx';
import { useSession } from './store.ts';
import './auth.css';

export interface NoticeState {
  notice?: string;
}

export function LandingPage() {
  const status = useSession((state) => state.status);
  const error = useSession((state) => state.error);
  const notice = (useLocation().state as NoticeState | null)?.notice;
  if (status === 'signedIn') return <Navigate to="/spacehub" replace />;
  return (
    <main className="auth-page" id="main">
      <section className="auth-hero">
        <Logo size={88} />
        <h1>{PRODUCT_NAME}</h1>
        <p className="tagline">{TAGLINE}</p>
      </section>
      <section className="auth-card" aria-labelledby="login-title">
        <h2 id="login-title">Log in</h2>
        {notice && (
          <p className="form-notice" role="status">
            {notice}
          </p>
        )}
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
        <LoginForm />
      </section>
    </main>
  );
}
