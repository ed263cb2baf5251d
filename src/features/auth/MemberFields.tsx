import { Field } from '../../components/Field.tsx';
import { TEXT_LIMITS } from '../../contracts/validationTexts.ts';
import type { BindText, FieldSpec } from './FieldList.tsx';

/** First and last name, as signup and settings ask them (docs/forms.md limits). */
export const NAME_FIELDS: readonly FieldSpec<'firstName' | 'lastName'>[] = [
  { name: 'firstName', label: 'First name', autoComplete: 'given-name', ...limit('firstName') },
  { name: 'lastName', label: 'Last name', autoComplete: 'family-name', ...limit('lastName') },
];

export const EMAIL_FIELD: FieldSpec<'email'> = {
  name: 'email',
  label: 'Email',
  type: 'email',
  autoComplete: 'email',
};

/**
 * The username with its availability beside it, announced as it changes. A name that breaks the
 * rule is never checked, so `error` shows the rule instead of a taken mark.
 */
export function UsernameField({
  bind,
  error,
  availability,
}: {
  bind: BindText<'username'>;
  error: string | null | undefined;
  availability: { className: string; text: string };
}) {
  return (
    <div data-field="username">
      <Field
        label="Username"
        autoComplete="username"
        spellCheck={false}
        autoCapitalize="none"
        {...bind('username')}
        error={error}
        liveError
        after={
          <span
            className={availability.className}
            aria-live="polite"
            data-testid="username-availability"
          >
            {availability.text}
          </span>
        }
      />
    </div>
  );
}

/** The security question and its answer, used to reset a forgotten password. */
export function securityQuestionFields(
  answerHint?: string,
): readonly FieldSpec<'securityQuestion' | 'securityAnswer'>[] {
  return [
    { name: 'securityQuestion', label: 'Security question', ...limit('securityQuestion') },
    {
      name: 'securityAnswer',
      label: 'Security answer',
      autoComplete: 'off',
      ...limit('securityAnswer'),
      ...(answerHint ? { hint: answerHint } : {}),
    },
  ];
}

function limit(field: keyof typeof TEXT_LIMITS) {
  return { maxLength: TEXT_LIMITS[field].max };
}
