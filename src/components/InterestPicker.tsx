import { INTERESTS_MAX } from '../contracts/constants.ts';
import './InterestPicker.css';

interface InterestPickerProps {
  choices: readonly string[];
  selected: readonly string[];
  onToggle: (interest: string) => void;
  legend?: string;
}

/** Checkbox chips; at the cap the unchecked ones cannot be checked. */
export function InterestPicker({
  choices,
  selected,
  onToggle,
  legend = 'Interests',
}: InterestPickerProps) {
  const extras = selected.filter((item) => !choices.includes(item));
  const full = selected.length >= INTERESTS_MAX;
  return (
    <fieldset className="interests">
      <legend>{legend}</legend>
      <p className="interests-count" aria-live="polite">
        {selected.length}/{INTERESTS_MAX} selected
      </p>
      <div className="interests-grid">
        {[...choices, ...extras].map((interest) => {
          const checked = selected.includes(interest);
          return (
            <label key={interest} className={`chip${checked ? ' checked' : ''}`}>
              <input
                type="checkbox"
                checked={checked}
                disabled={!checked && full}
                onChange={() => onToggle(interest)}
              />
              {interest}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
