import { type FormEvent, useRef, useState } from 'react';
import { Navigate, useNavigate } from 'react-router-dom';
import { authApi } from './api.ts';
import { signupErrorText } from './loginError.ts';
import {
  EMPTY_SIGNUP,
  FIELD_ORDER,
  type SignupErrors,
  type SignupValues,
  toFormData,
  toggleInterest,
  validateSignup,
  signupAvailability,
} from './signupForm.ts';
import { SignupSections } from './SignupSections.tsx';
import { useSession } from './store.ts';
import { useUsernameAvailability } from './useUsernameAvailability.ts';
import './auth.css';

const SIGNUP_SECTIONS = [
  { id: 'basic-info', label: 'Basic Info' },
  { id: 'security', label: 'Security' },
  { id: 'profile', label: 'Profile' },
  { id: 'referral', label: 'Referral' },
] as const;

export function SignupPage() {
  const status = useSession((state) => state.status);
  const signup = useSession((state) => state.signup);
  const navigate = useNavigate();
  const [values, setValues] = useState<SignupValues>(EMPTY_SIGNUP);
  const [profilePic, setProfilePic] = useState<File | null>(null);
  const [errors, setErrors] = useState<SignupErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const availability = signupAvailability(
    useUsernameAvailability(values.username, authApi.checkUsername),
  );
  const formRef = useRef<HTMLFormElement>(null);
  const focusField = (field: string) =>
    formRef.current
      ?.querySelector<HTMLElement>(
        `[data-field="${field}"] input, [data-field="${field}"] textarea`,
      )
      ?.focus();

  if (status === 'signedIn' && !creating) return <Navigate to="/spacehub" replace />;

  const update = <K extends keyof SignupValues>(key: K, value: SignupValues[K]) => {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignup(values, profilePic !== null, availability);
    setErrors(found);
    setFormError(null);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first || !profilePic) {
      focusField(first ?? 'profilePic');
      return;
    }
    setCreating(true);
    try {
      const user = await signup(toFormData(values, profilePic, false), false);
      void navigate(user.username ? `/profile/${encodeURIComponent(user.username)}` : '/profile', {
        replace: true,
      });
    } catch (caught) {
      setFormError(signupErrorText(caught));
      setCreating(false);
    }
  };

  return (
    <main className="signup-page" id="main">
      <h1>Create your account</h1>
      <div className="signup-layout">
        <nav className="signup-nav" aria-label="Signup sections">
          <ol>
            {SIGNUP_SECTIONS.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.label}</a>
              </li>
            ))}
          </ol>
        </nav>
        <nav className="signup-pills" aria-label="Jump to section">
          {SIGNUP_SECTIONS.map((section) => (
            <a key={section.id} href={`#${section.id}`} className="pill">
              {section.label}
            </a>
          ))}
        </nav>
        <form
          ref={formRef}
          className="signup-form"
          onSubmit={(event) => void onSubmit(event)}
          noValidate
        >
          <SignupSections
            {...{ values, errors, availability, profilePic }}
            onChange={update}
            onToggleInterest={(interest) =>
              update('interests', toggleInterest(values.interests, interest))
            }
            onProfilePic={(file) => {
              setProfilePic(file);
              setErrors((current) => ({ ...current, profilePic: undefined }));
            }}
          />
          {formError && (
            <p className="form-error" role="alert">
              {formError}
            </p>
          )}
          <div className="signup-actions">
            <button type="button" className="button ghost" onClick={() => void navigate('/')}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={creating}>
              {creating ? 'Creating Account...' : 'Create Account'}
            </button>
          </div>
        </form>
      </div>
    </main>
  );
}
