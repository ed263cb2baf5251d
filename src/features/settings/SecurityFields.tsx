import { PasswordChecklist } from '../../components/PasswordChecklist.tsx';
import { type FieldSpec, FieldList } from '../auth/FieldList.tsx';
import { securityQuestionFields } from '../auth/MemberFields.tsx';
import { bindText } from './bindText.ts';
import type { FieldErrors, SecurityValues } from './settingsState.ts';

interface SecurityFieldsProps {
  values: SecurityValues;
  /** Whether the member has a stored question, so a blank answer keeps the stored one. */
  hasQuestion: boolean;
  errors: FieldErrors;
  onChange: (patch: Partial<SecurityValues>) => void;
}

export const CURRENT_PASSWORD_FIELD: FieldSpec<'currentPassword'> = {
  name: 'currentPassword',
  label: 'Current password',
  autoComplete: 'current-password',
  password: true,
};

/**
 * Step 2: a password change (PATCH /api/auth/password) and the security question for a forgotten
 * password (PATCH /api/auth/profile). Save sends whichever of the two the member filled in; both
 * need the current password (docs/decisions.md "Re-authentication").
 */
export function SecurityFields({ values, hasQuestion, errors, onChange }: SecurityFieldsProps) {
  const bind = bindText(values, onChange);
  return (
    <>
      <p className="settings-note">
        Enter your current password to change your password or your security question.
      </p>
      <FieldList fields={[CURRENT_PASSWORD_FIELD]} bind={bind} errors={errors} />
      <h3 className="settings-subhead">Change password</h3>
      <FieldList
        fields={[
          {
            name: 'newPassword',
            label: 'New password',
            autoComplete: 'new-password',
            password: true,
            hint: <PasswordChecklist password={values.newPassword} />,
          },
          {
            name: 'confirmPassword',
            label: 'Confirm new password',
            autoComplete: 'new-password',
            password: true,
          },
        ]}
        bind={bind}
        errors={errors}
      />
      <h3 className="settings-subhead">Security question</h3>
      <p className="settings-note">Used to reset your password if you forget it.</p>
      <FieldList
        fields={securityQuestionFields(
          hasQuestion ? 'Leave blank to keep your current answer.' : undefined,
        )}
        bind={bind}
        errors={errors}
      />
    </>
  );
}
