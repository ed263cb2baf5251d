import { useEffect, useId, useRef } from 'react';
import { SETTINGS_INTERESTS, choicesWithHeld } from '../../contracts/interests.ts';
import { THEMES, type Theme } from '../../contracts/theme.ts';
import { Avatar, AvatarPreview } from '../../components/Avatar.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import { InterestPicker } from '../../components/InterestPicker.tsx';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import { OFFLINE_REASON, OFFLINE_REASON_ID, useOffline } from '../offline/store.ts';
import type { FieldErrors, ProfileValues } from './settingsState.ts';
import { useObjectUrl } from '../../components/useObjectUrl.ts';

const THEME_NAMES: Record<Theme, string> = {
  light: 'Light',
  normal1: 'Cosmos',
  normal2: 'Nebula',
  dark: 'Dark',
  custom: 'Custom',
};

const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif,image/heic,image/heif';

interface ProfileFieldsProps {
  values: ProfileValues;
  /** The member's current picture and name, for the preview until a new one is chosen. */
  current: { profileImage: string; username: string; avatarVersion: string | null };
  errors: FieldErrors;
  onChange: (patch: Partial<ProfileValues>) => void;
  onToggleInterest: (interest: string) => void;
  /** The interests saved on the account, some perhaps outside the settings list. */
  heldInterests: readonly string[];
}

function PicturePicker({
  file,
  current,
  error,
  onPick,
}: {
  file: File | null;
  current: ProfileFieldsProps['current'];
  error: string | undefined;
  onPick: (file: File | null) => void;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  // A new picture is uploaded as it is saved, so it cannot be chosen offline.
  const offline = useOffline();
  const describedBy = [error ? `${id}-error` : '', offline ? OFFLINE_REASON_ID : '']
    .filter(Boolean)
    .join(' ');
  // Undo or Cancel drops the chosen file; the input must forget it too.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);
  const preview = useObjectUrl(file);
  return (
    <div className="field" data-field="profilePic">
      <label htmlFor={id}>Profile picture</label>
      <div className="settings-picture">
        {preview ? (
          <AvatarPreview src={preview} alt="New profile picture" size={72} />
        ) : (
          <Avatar
            src={current.profileImage}
            username={current.username}
            size={72}
            version={current.avatarVersion}
          />
        )}
        <input
          ref={input}
          id={id}
          type="file"
          accept={IMAGE_TYPES}
          disabled={offline}
          title={offline ? OFFLINE_REASON : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => onPick(event.target.files?.[0] ?? null)}
        />
      </div>
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
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
  return (
    <>
      <PicturePicker
        file={values.profilePic}
        current={current}
        error={errors.profilePic}
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
          value={values.favoriteQuote}
          onChange={(event) => onChange({ favoriteQuote: event.target.value })}
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
