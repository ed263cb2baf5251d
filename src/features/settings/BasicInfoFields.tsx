import { Field } from '../../components/Field.tsx';
import { FieldList, NAME_FIELDS } from '../auth/MemberFields.tsx';
import { bindText } from './bindText.ts';
import { usernameRuleWhileTyping } from '../../contracts/validation.ts';
import type { BasicValues, FieldErrors } from './settingsState.ts';
import type { UsernameAvailability } from '../auth/useUsernameAvailability.ts';
import { AVAILABILITY_TEXT } from './usernameCheck.ts';

interface BasicInfoFieldsProps {
  values: BasicValues;
  birthday: string;
  errors: FieldErrors;
  availability: UsernameAvailability;
  onChange: (patch: Partial<BasicValues>) => void;
}

/** Step 1: names, username with its live availability, email, and the birthday that cannot change. */
export function BasicInfoFields({
  values,
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
      <div data-field="username">
        <Field
          label="Username"
          autoComplete="username"
          spellCheck={false}
          autoCapitalize="none"
          {...bind('username')}
          // A name that breaks the rule is never checked, so it shows the rule, not a taken mark.
          error={errors.username ?? usernameRuleWhileTyping(values.username)}
          liveError
          after={
            <span
              className={`settings-availability ${availability}`}
              aria-live="polite"
              data-testid="username-availability"
            >
              {AVAILABILITY_TEXT[availability]}
            </span>
          }
        />
      </div>
      <div data-field="email">
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          {...bind('email')}
          error={errors.email}
        />
      </div>
      <div data-field="birthday">
        <Field label="Birthday" value={birthday} readOnly hint="Your birthday cannot be changed." />
      </div>
    </>
  );
}
