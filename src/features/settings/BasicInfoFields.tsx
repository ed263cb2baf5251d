import { Field } from '../../components/Field.tsx';
import { TEXT_LIMITS, usernameRuleWhileTyping } from '../../contracts/validation.ts';
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
  return (
    <>
      <div className="settings-pair">
        <div data-field="firstName">
          <Field
            label="First name"
            autoComplete="given-name"
            maxLength={TEXT_LIMITS.firstName.max}
            value={values.firstName}
            onChange={(event) => onChange({ firstName: event.target.value })}
            error={errors.firstName}
          />
        </div>
        <div data-field="lastName">
          <Field
            label="Last name"
            autoComplete="family-name"
            maxLength={TEXT_LIMITS.lastName.max}
            value={values.lastName}
            onChange={(event) => onChange({ lastName: event.target.value })}
            error={errors.lastName}
          />
        </div>
      </div>
      <div data-field="username">
        <Field
          label="Username"
          autoComplete="username"
          spellCheck={false}
          autoCapitalize="none"
          value={values.username}
          onChange={(event) => onChange({ username: event.target.value })}
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
          value={values.email}
          onChange={(event) => onChange({ email: event.target.value })}
          error={errors.email}
        />
      </div>
      <div data-field="birthday">
        <Field label="Birthday" value={birthday} readOnly hint="Your birthday cannot be changed." />
      </div>
    </>
  );
}
