import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MESSAGES, passwordError } from '../../contracts/validation.ts';
import { FormSubmit } from '../../components/FormSubmit.tsx';
import { Field, PasswordField } from '../../components/Field.tsx';
import { PasswordChecklist } from '../../components/PasswordChecklist.tsx';
import { HttpError } from '../../lib/http.ts';
import { authApi } from './api.ts';
import type { NoticeState } from './LandingPage.tsx';
import './auth.css';

export const RESET_DONE = 'Password reset. Please log in.';

function errorText(error: unknown): string {
  if (error instanceof HttpError && error.serverMessage) return error.serverMessage;
  if (error instanceof HttpError && error.status > 0)
    return `Something went wrong (${error.status}). Try again.`;
  return 'Could not reach Orbit. Check your connection and try again.';
}

/** Reset by security question: who you are → your question → answer and new password. */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [identifier, setIdentifier] = useState('');
  const [question, setQuestion] = useState<string | null>(null);
  const [answer, setAnswer] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
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
            <Field
              label="Username or email"
              autoComplete="username"
              value={identifier}
              onChange={(event) => setIdentifier(event.target.value)}
            />
            <FormSubmit error={error} busy={busy} label="Continue" busyLabel="Looking up…" />
          </form>
        ) : (
          <form onSubmit={(event) => void reset(event)} noValidate>
            <p className="security-question">
              <span className="label">Security question</span>
              <strong>{question}</strong>
            </p>
            <Field
              label="Answer"
              autoComplete="off"
              value={answer}
              onChange={(event) => setAnswer(event.target.value)}
            />
            <PasswordField
              label="New password"
              autoComplete="new-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              hint={<PasswordChecklist password={password} />}
            />
            <PasswordField
              label="Confirm new password"
              autoComplete="new-password"
              value={confirm}
              onChange={(event) => setConfirm(event.target.value)}
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
