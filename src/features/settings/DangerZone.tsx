import { type FormEvent, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { Field, PasswordField } from '../../components/Field.tsx';
import { MESSAGES } from '../../contracts/validation.ts';
import type { NoticeState } from '../auth/LandingPage.tsx';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { settingsApi } from './api.ts';
import { ACCOUNT_DELETED, endDeletedAccount } from './leaving.ts';
import { saveErrorOf } from './saveError.ts';

const DELETE_TITLE = 'Delete your account?';
const DELETE_WARNING =
  'This removes your profile, photos, friends, notifications and everything else you own. It can’t be undone.';

/** The username typed again matches as the server compares it: trimmed, in any case. */
const usernameMatches = (typed: string, username: string) =>
  typed.trim().toLowerCase() === username.toLowerCase();

interface Errors {
  password?: string;
  form?: string;
}

/** The confirmation of docs/product.md "Leaving": the password, and the username typed again. */
function DeleteAccountForm({
  user,
  onCancel,
  onBusy,
}: {
  user: CurrentUser;
  onCancel: () => void;
  onBusy: (busy: boolean) => void;
}) {
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [deleting, setDeleting] = useState(false);
  const passwordField = useRef<HTMLDivElement>(null);
  const needsNetwork = useNeedsNetwork();
  const navigate = useNavigate();
  const matches = usernameMatches(typed, user.username);

  const focusPassword = () => passwordField.current?.querySelector('input')?.focus();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!matches || deleting) return;
    if (!password) {
      setErrors({ password: MESSAGES.currentPasswordRequired });
      focusPassword();
      return;
    }
    setDeleting(true);
    onBusy(true);
    setErrors({});
    try {
      await settingsApi.deleteAccount({ password, username: typed });
    } catch (error) {
      const { message, field } = saveErrorOf(error);
      setErrors(field === 'currentPassword' ? { password: message } : { form: message });
      setDeleting(false);
      onBusy(false);
      // The field is enabled again on the next render.
      if (field === 'currentPassword') setTimeout(focusPassword);
      return;
    }
    await endDeletedAccount(user);
    void navigate('/landing', {
      replace: true,
      state: { notice: ACCOUNT_DELETED } satisfies NoticeState,
    });
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)}>
      <p>{DELETE_WARNING}</p>
      <fieldset className="settings-fields" disabled={deleting}>
        <div ref={passwordField}>
          <PasswordField
            label="Password"
            name="password"
            autoComplete="current-password"
            value={password}
            error={errors.password}
            onChange={(event) => {
              setPassword(event.target.value);
              setErrors({});
            }}
          />
        </div>
        <Field
          label="Type your username to confirm"
          name="confirm-username"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
        />
      </fieldset>
      {errors.form && (
        <p className="form-error" role="alert">
          {errors.form}
        </p>
      )}
      <DialogActions
        onCancel={onCancel}
        cancelDisabled={deleting}
        confirm={{
          label: deleting ? 'Deleting…' : 'Delete my account',
          danger: true,
          type: 'submit',
          ...needsNetwork(!matches || deleting),
        }}
      />
    </form>
  );
}

/** Settings → Danger zone: deleting the account, behind a confirmation. */
export function DangerZone({ user }: { user: CurrentUser }) {
  const [open, setOpen] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  // While the deletion is under way the dialog stays: Escape and the backdrop do nothing.
  const busy = useRef(false);
  const close = () => {
    if (!busy.current) setOpen(false);
  };
  return (
    <>
      <div className="settings-actions">
        <button type="button" className="button danger" ref={opener} onClick={() => setOpen(true)}>
          Delete my account
        </button>
      </div>
      <Dialog open={open} title={DELETE_TITLE} onClose={close} returnFocus={opener}>
        <DeleteAccountForm
          user={user}
          onCancel={close}
          onBusy={(now) => {
            busy.current = now;
          }}
        />
      </Dialog>
    </>
  );
}
