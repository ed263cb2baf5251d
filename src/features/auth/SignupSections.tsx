import { SIGNUP_INTERESTS } from '../../contracts/interests.ts';
import { PictureField } from '../../components/PictureField.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import { InterestPicker } from '../../components/InterestPicker.tsx';
import { PasswordChecklist } from '../../components/PasswordChecklist.tsx';
import {
  type Availability,
  type SignupErrors,
  type SignupValues,
  usernameFeedback,
} from './signupForm.ts';
import { type FieldSpec, FieldList } from './FieldList.tsx';
import {
  EMAIL_FIELD,
  NAME_FIELDS,
  UsernameField,
  securityQuestionFields,
} from './MemberFields.tsx';

interface SectionsProps {
  values: SignupValues;
  errors: SignupErrors;
  availability: Availability;
  profilePic: File | null;
  onChange: <K extends keyof SignupValues>(key: K, value: SignupValues[K]) => void;
  onToggleInterest: (interest: string) => void;
  onProfilePic: (file: File | null) => void;
}

const AVAILABILITY_TEXT: Record<Availability, string> = {
  unknown: '',
  available: 'Available',
  unavailable: 'Not available',
};

export function SignupSections({
  values,
  errors,
  availability,
  profilePic,
  onChange,
  onToggleInterest,
  onProfilePic,
}: SectionsProps) {
  const username = usernameFeedback(values.username, availability);
  const text = (key: keyof SignupValues) => ({
    value: values[key] as string,
    onChange: (event: { target: { value: string } }) => onChange(key, event.target.value),
  });
  const fieldList = (fields: readonly FieldSpec<keyof SignupValues>[]) => (
    <FieldList fields={fields} bind={text} errors={errors} />
  );
  return (
    <>
      <section
        id="basic-info"
        className="form-section section-card"
        aria-labelledby="basic-info-title"
      >
        <h2 id="basic-info-title">Basic Info</h2>
        <UsernameField
          bind={text}
          error={errors.username ?? username.rule}
          availability={{
            className: `availability ${username.availability}`,
            text: AVAILABILITY_TEXT[username.availability],
          }}
        />
        <div className="field-pair">{fieldList(NAME_FIELDS)}</div>
        {fieldList([
          EMAIL_FIELD,
          { name: 'birthday', label: 'Birthday', type: 'date', autoComplete: 'bday' },
        ])}
      </section>

      <section id="security" className="form-section section-card" aria-labelledby="security-title">
        <h2 id="security-title">Security</h2>
        {fieldList([
          {
            name: 'password',
            label: 'Password',
            autoComplete: 'new-password',
            password: true,
            hint: <PasswordChecklist password={values.password} />,
          },
          {
            name: 'confirmPassword',
            label: 'Confirm password',
            autoComplete: 'new-password',
            password: true,
          },
          ...securityQuestionFields(),
        ])}
      </section>

      <section id="profile" className="form-section section-card" aria-labelledby="profile-title">
        <h2 id="profile-title">Profile</h2>
        <PictureField
          label="Profile image"
          file={profilePic}
          previewAlt="Chosen profile image"
          className="avatar-pick"
          error={errors.profilePic}
          onPick={onProfilePic}
        />
        <div data-field="interests">
          <InterestPicker
            choices={SIGNUP_INTERESTS}
            selected={values.interests}
            onToggle={onToggleInterest}
          />
          {errors.interests && <p className="field-error">{errors.interests}</p>}
        </div>
        <div data-field="favoriteQuote">
          <TextAreaField
            label="Favorite quote"
            maxLength={TEXT_LIMITS.favoriteQuote.max}
            {...text('favoriteQuote')}
            error={errors.favoriteQuote}
          />
        </div>
      </section>

      <section id="referral" className="form-section section-card" aria-labelledby="referral-title">
        <h2 id="referral-title">Referral</h2>
        {fieldList([
          { name: 'referral', label: 'Referral code', maxLength: TEXT_LIMITS.referral.max },
        ])}
      </section>
    </>
  );
}
