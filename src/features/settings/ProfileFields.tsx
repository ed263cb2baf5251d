import { useId } from 'react';
import { SETTINGS_INTERESTS, choicesWithHeld } from '../../contracts/interests.ts';
import { THEMES, type Theme } from '../../contracts/theme.ts';
import { Avatar } from '../../components/Avatar.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import { PictureField } from '../../components/PictureField.tsx';
import { InterestPicker } from '../../components/InterestPicker.tsx';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import { OFFLINE_REASON, OFFLINE_REASON_ID, useOffline } from '../offline/store.ts';
import { bindText } from './bindText.ts';
import type { FieldErrors, ProfileValues } from './settingsState.ts';

const THEME_NAMES: Record<Theme, string> = {
  light: 'Light',
  normal1: 'Cosmos',
  normal2: 'Nebula',
  dark: 'Dark',
  custom: 'Custom',
};

interface ProfileFieldsProps {
  values: ProfileValues;
  /** The member's current picture and name, for the preview until a new one is chosen. */
  current: { profileImage: string; username: string };
  errors: FieldErrors;
  onChange: (patch: Partial<ProfileValues>) => void;
  onToggleInterest: (interest: string) => void;
  /** The interests saved on the account, some perhaps outside the settings list. */
  heldInterests: readonly string[];
}

/** Step 3: picture, interests (n/25), favourite quote and theme. */
export function ProfileFields({
  values,
  current,
  errors,
  onChange,
  onToggleInterest,
  heldInterests,
}: ProfileFieldsProps) {
  const themeName = useId();
  const offline = useOffline();
  return (
    <>
      <PictureField
        label="Profile picture"
        file={values.profilePic}
        previewAlt="New profile picture"
        fallback={<Avatar src={current.profileImage} username={current.username} size={72} />}
        className="settings-picture"
        error={errors.profilePic}
        // A new picture is uploaded as it is saved, so it cannot be chosen offline.
        disabledReason={offline ? { title: OFFLINE_REASON, id: OFFLINE_REASON_ID } : null}
        onPick={(profilePic) => onChange({ profilePic })}
      />
      <div data-field="interests">
        <InterestPicker
          choices={choicesWithHeld(SETTINGS_INTERESTS, heldInterests)}
          selected={values.interests}
          onToggle={onToggleInterest}
        />
      </div>
      <div data-field="favoriteQuote">
        <TextAreaField
          label="Favorite quote"
          maxLength={TEXT_LIMITS.favoriteQuote.max}
          {...bindText(values, onChange)('favoriteQuote')}
          error={errors.favoriteQuote}
        />
      </div>
      <fieldset className="settings-themes" data-field="theme">
        <legend>Theme</legend>
        <div className="settings-theme-grid">
          {THEMES.map((theme) => (
            <label
              key={theme}
              className={`settings-theme${values.theme === theme ? ' checked' : ''}`}
            >
              <input
                type="radio"
                name={themeName}
                value={theme}
                checked={values.theme === theme}
                onChange={() => onChange({ theme })}
              />
              {/* data-theme gives the swatch that theme's colour variables. */}
              <span className="settings-theme-swatch" data-theme={theme} aria-hidden="true" />
              {THEME_NAMES[theme]}
            </label>
          ))}
        </div>
      </fieldset>
    </>
  );
}
