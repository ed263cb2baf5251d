import { Field, PasswordField } from '../../components/Field.tsx';
import { PasswordChecklist } from '../../components/PasswordChecklist.tsx';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import type { FieldErrors, SecurityValues } from './settingsState.ts';

interface SecurityFieldsProps {
  values: SecurityValues;
  /** Whether the member has a stored question, so a blank answer keeps the stored one. */
  hasQuestion: boolean;
  errors: FieldErrors;
  onChange: (patch: Partial<SecurityValues>) => void;
}

/**
 * Step 2: a password change (PATCH /api/auth/password) and the security question for a forgotten
 * password (PATCH /api/auth/profile). Save sends whichever of the two the member filled in.
 */
export function SecurityFields({ values, hasQuestion, errors, onChange }: SecurityFieldsProps) {
  return (
    <>
      <h3 className="settings-subhead">Change password</h3>
      <div data-field="currentPassword">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={(event) => onChange({ currentPassword: event.target.value })}
          error={errors.currentPassword}
        />
      </div>
      <div data-field="newPassword">
        <PasswordField
          label="New password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={(event) => onChange({ newPassword: event.target.value })}
          error={errors.newPassword}
          hint={<PasswordChecklist password={values.newPassword} />}
        />
      </div>
      <div data-field="confirmPassword">
        <PasswordField
          label="Confirm new password"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(event) => onChange({ confirmPassword: event.target.value })}
          error={errors.confirmPassword}
        />
      </div>
      <h3 className="settings-subhead">Security question</h3>
      <p className="settings-note">Used to reset your password if you forget it.</p>
      <div data-field="securityQuestion">
        <Field
          label="Security question"
          maxLength={TEXT_LIMITS.securityQuestion.max}
          value={values.securityQuestion}
          onChange={(event) => onChange({ securityQuestion: event.target.value })}
          error={errors.securityQuestion}
        />
      </div>
      <div data-field="securityAnswer">
        <Field
          label="Security answer"
          autoComplete="off"
          maxLength={TEXT_LIMITS.securityAnswer.max}
          value={values.securityAnswer}
          onChange={(event) => onChange({ securityAnswer: event.target.value })}
          error={errors.securityAnswer}
          hint={hasQuestion ? 'Leave blank to keep your current answer.' : undefined}
        />
      </div>
    </>
  );
}
