import type { ReactNode } from 'react';
import { useNeedsNetwork } from '../offline/store.ts';
import type { SectionId } from './settingsState.ts';

interface SectionCardProps {
  id: SectionId;
  label: string;
  /** The section being edited anywhere on the page, if any. */
  editing: SectionId | null;
  saving: boolean;
  /** What the last Save of this section failed with, beyond any one field. */
  error?: string | undefined;
  onEdit: () => void;
  onUndo: () => void;
  onCancel: () => void;
  onSave: () => void;
  /** Shown above the form and usable while viewing (the referral code and its Copy button). */
  lead?: ReactNode;
  children: ReactNode;
}

/**
 * One settings section: its fields, read-only (and looking it) until `Edit` beside the section's
 * title, then undo, cancel and save buttons below them.
 */
export function SectionCard({
  id,
  label,
  editing,
  saving,
  error,
  onEdit,
  onUndo,
  onCancel,
  onSave,
  lead,
  children,
}: SectionCardProps) {
  const isEditing = editing === id;
  const titleId = `settings-${id}-title`;
  const needsNetwork = useNeedsNetwork();
  return (
    <section
      id={`settings-${id}`}
      className={`settings-section section-card${isEditing ? ' editing' : ''}`}
      aria-labelledby={titleId}
    >
      <div className="settings-section-head">
        <h2 id={titleId}>{label}</h2>
        {isEditing ? (
          <span className="settings-badge">Editing</span>
        ) : (
          <button
            type="button"
            className="button"
            data-action="edit"
            onClick={onEdit}
            disabled={editing !== null}
            title={
              editing !== null ? 'Save or cancel the section you are editing first' : undefined
            }
          >
            Edit
          </button>
        )}
      </div>
      {lead}
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        <fieldset className="settings-fields" disabled={!isEditing || saving}>
          {children}
        </fieldset>
        {/* Said once, here: a failed save is not repeated in a toast. */}
        {isEditing && error && (
          <p className="form-error settings-form-error" role="alert">
            {error}
          </p>
        )}
        {isEditing && (
          <div className="settings-actions">
            <button type="button" className="button ghost" onClick={onUndo} disabled={saving}>
              Undo Changes
            </button>
            <button type="button" className="button ghost" onClick={onCancel} disabled={saving}>
              Cancel
            </button>
            <button
              type="submit"
              className="button primary"
              {...needsNetwork(saving)}
              aria-keyshortcuts="Control+S Meta+S"
            >
              {saving ? 'Saving…' : 'Save'}
            </button>
          </div>
        )}
      </form>
    </section>
  );
}

/** A settings section without Edit and Save: its controls act at once. */
export function SettingsPanel({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  const titleId = `settings-${id}-title`;
  return (
    <section
      id={`settings-${id}`}
      className={`settings-section section-card${className ? ` ${className}` : ''}`}
      aria-labelledby={titleId}
    >
      <div className="settings-section-head">
        <h2 id={titleId}>{label}</h2>
      </div>
      {children}
    </section>
  );
}
