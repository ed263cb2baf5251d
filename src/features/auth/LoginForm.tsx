import { type FormEvent, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { MESSAGES } from '../../contracts/validationTexts.ts';
import { FormSubmit } from '../../components/FormSubmit.tsx';
import { useTextFields } from '../../components/useTextFields.ts';
import { loginErrorText } from './loginError.ts';
import { FieldList } from './FieldList.tsx';
import { useSession } from './store.ts';

/** What the sign-in guard carries to the login form: the page the visitor asked for. */
export interface FromState {
  from?: string;
}

/** Where to go after signing in: the page the guard carried along, else the member's profile. */
function afterLoginPath(from: string | undefined, username: string): string {
  if (from && from.startsWith('/') && !from.startsWith('//') && !/^\/(landing|signup)\b/.test(from))
    return from;
  return username ? `/profile/${encodeURIComponent(username)}` : '/spacehub';
}

export function LoginForm() {
  const { values, bind } = useTextFields({ identifier: '', password: '' });
  const { identifier, password } = values;
  const [remember, setRemember] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const login = useSession((state) => state.login);
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as FromState | null)?.from;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = identifier.trim();
    if (!trimmed || !password) {
      setError(MESSAGES.loginRequired);
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const user = await login({ identifier: trimmed, password, remember });
      void navigate(afterLoginPath(from, user.username), { replace: true });
    } catch (caught) {
      setError(loginErrorText(caught));
      setSubmitting(false);
    }
  };

  return (
    <form
      className="login-form"
      onSubmit={(event) => void onSubmit(event)}
      noValidate
      aria-label="Log in"
    >
      <FieldList
        fields={[
          { name: 'identifier', label: 'Username or email', autoComplete: 'username' },
          { name: 'password', label: 'Password', autoComplete: 'current-password', password: true },
        ]}
        bind={bind}
      />
      <div className="login-row">
        <label className="checkbox">
          <input
            type="checkbox"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
          />
          Remember me
        </label>
        <Link to="/forgot-password">Forgot password?</Link>
      </div>
      <FormSubmit error={error} busy={submitting} label="Login" busyLabel="Logging in..." />
      <button type="button" className="button ghost wide" onClick={() => void navigate('/signup')}>
        Sign Up
      </button>
    </form>
  );
}
