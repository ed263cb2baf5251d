import { Field } from '../../components/Field.tsx';
import { FieldList } from '../auth/FieldList.tsx';
import { EMAIL_FIELD, NAME_FIELDS, UsernameField } from '../auth/MemberFields.tsx';
import { bindText } from './bindText.ts';
import { usernameRuleWhileTyping } from '../../contracts/validation.ts';
import type { BasicValues, FieldErrors } from './settingsState.ts';
import type { UsernameAvailability } from '../auth/useUsernameAvailability.ts';
import { AVAILABILITY_TEXT } from './usernameCheck.ts';
import { CURRENT_PASSWORD_FIELD } from './SecurityFields.tsx';
import { emailChanged } from './validate.ts';

interface BasicInfoFieldsProps {
  values: BasicValues;
  /** The stored email: a different one asks for the current password. */
  storedEmail: string;
  birthday: string;
  errors: FieldErrors;
  availability: UsernameAvailability;
  onChange: (patch: Partial<BasicValues>) => void;
}

/**
 * Step 1: names, username with its live availability, email (a new one asks for the current
 * password), and the birthday that cannot change.
 */
export function BasicInfoFields({
  values,
  storedEmail,
  birthday,
  errors,
  availability,
  onChange,
}: BasicInfoFieldsProps) {
  const bind = bindText(values, onChange);
  return (
    <>
      <div className="settings-pair">
        <FieldList fields={NAME_FIELDS} bind={bind} errors={errors} />
      </div>
      <UsernameField
        bind={bind}
        // A name that breaks the rule is never checked, so it shows the rule, not a taken mark.
        error={errors.username ?? usernameRuleWhileTyping(values.username)}
        availability={{
          className: `settings-availability ${availability}`,
          text: AVAILABILITY_TEXT[availability],
        }}
      />
      <FieldList fields={[EMAIL_FIELD]} bind={bind} errors={errors} />
      {emailChanged(values, storedEmail) && (
        <FieldList
          fields={[{ ...CURRENT_PASSWORD_FIELD, hint: 'Needed to change your email.' }]}
          bind={bind}
          errors={errors}
        />
      )}
      <div data-field="birthday">
        <Field label="Birthday" value={birthday} readOnly hint="Your birthday cannot be changed." />
      </div>
    </>
  );
}
