import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MESSAGES, passwordError } from '../../contracts/validation.ts';
import { FormSubmit } from '../../components/FormSubmit.tsx';
import { useTextFields } from '../../components/useTextFields.ts';
import { PasswordChecklist } from '../../components/PasswordChecklist.tsx';
import { HttpError } from '../../lib/http.ts';
import { authApi } from './api.ts';
import type { NoticeState } from './LandingPage.tsx';
import { FieldList } from './FieldList.tsx';
import './auth.css';

const RESET_DONE = 'Password reset. Please log in.';

function errorText(error: unknown): string {
  if (error instanceof HttpError && error.serverMessage) return error.serverMessage;
  if (error instanceof HttpError && error.status > 0)
    return `Something went wrong (${error.status}). Try again.`;
  return 'Could not reach Orbit. Check your connection and try again.';
}

/** Reset by security question: who you are → your question → answer and new password. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const { values, bind } = useTextFields({ identifier: '', answer: '', password: '', confirm: '' });
  const { identifier, answer, password, confirm } = values;
  const [question, setQuestion] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const askQuestion = async (event: FormEvent) => {
    event.preventDefault();
    if (!identifier.trim()) {
      setError('Enter your username or email.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      setQuestion((await authApi.securityQuestion(identifier.trim())).question);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setBusy(false);
    }
  };

  const reset = async (event: FormEvent) => {
    event.preventDefault();
    const problem = !answer.trim()
      ? 'Enter your answer.'
      : (passwordError(password) ?? (confirm !== password ? MESSAGES.confirmMismatch : null));
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await authApi.resetPassword({ identifier: identifier.trim(), answer, newPassword: password });
      void navigate('/landing', {
        replace: true,
        state: { notice: RESET_DONE } satisfies NoticeState,
      });
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
    }
  };

  return (
    <main className="auth-page single" id="main">
      <section className="auth-card" aria-labelledby="forgot-title">
        <h1 id="forgot-title">Reset your password</h1>
        {question === null ? (
          <form onSubmit={(event) => void askQuestion(event)} noValidate>
            <p>Enter your username or email and answer your security question.</p>
            <FieldList
              fields={[
                { name: 'identifier', label: 'Username or email', autoComplete: 'username' },
              ]}
              bind={bind}
            />
            <FormSubmit error={error} busy={busy} label="Continue" busyLabel="Looking up…" />
          </form>
        ) : (
          <form onSubmit={(event) => void reset(event)} noValidate>
            <p className="security-question">
              <span className="label">Security question</span>
              <strong>{question}</strong>
            </p>
            <FieldList
              fields={[
                { name: 'answer', label: 'Answer', autoComplete: 'off' },
                {
                  name: 'password',
                  label: 'New password',
                  autoComplete: 'new-password',
                  password: true,
                  hint: <PasswordChecklist password={password} />,
                },
                {
                  name: 'confirm',
                  label: 'Confirm new password',
                  autoComplete: 'new-password',
                  password: true,
                },
              ]}
              bind={bind}
            />
            <FormSubmit error={error} busy={busy} label="Reset password" busyLabel="Resetting…" />
          </form>
        )}
        <p className="auth-footer">
          <Link to="/landing">Back to login</Link>
        </p>
      </section>
    </main>
  );
}
