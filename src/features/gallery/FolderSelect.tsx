import { useId, useState } from 'react';
import { DEFAULT_FOLDER } from '../../contracts/constants.ts';
import { FOLDER_MAX } from '../../contracts/gallery.ts';

const NEW_FOLDER = '\u0000new';

interface FolderSelectProps {
  label: string;
  value: string;
  /** 'All' first, then the owner's folders. */
  folders: readonly string[];
  onChange: (folder: string) => void;
  /** Offered to the owner: type a folder name that does not exist yet. */
  onCreate?: (folder: string) => void;
  disabled?: boolean;
}

/** Picks one of the folders, or (for the owner) names a new one in place (docs/decisions.md "Saved order and folders"). */
export function FolderSelect({
  label,
  value,
  folders,
  onChange,
  onCreate,
  disabled = false,
}: FolderSelectProps) {
  const id = useId();
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const options = folders.includes(value) ? folders : [...folders, value];

  const finish = (create: boolean) => {
    const folder = name.trim();
    setNaming(false);
    setName('');
    if (!create || !folder) return;
    if (folder === DEFAULT_FOLDER || folder.toLowerCase() === 'root') onChange(DEFAULT_FOLDER);
    else onCreate?.(folder);
  };

  if (naming) {
    return (
      <form
        className="folder-new"
        onSubmit={(event) => {
          event.preventDefault();
          finish(true);
        }}
      >
        <label htmlFor={id}>New folder name</label>
        <input
          id={id}
          value={name}
          maxLength={FOLDER_MAX}
          autoFocus
          onChange={(event) => setName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== 'Escape') return;
            // Only the naming ends; a dialog around it stays open.
            event.preventDefault();
            event.stopPropagation();
            finish(false);
          }}
        />
        <button type="submit" className="button primary small" disabled={!name.trim()}>
          Add
        </button>
        <button type="button" className="button small" onClick={() => finish(false)}>
          Cancel
        </button>
      </form>
    );
  }

  return (
    <div className="folder-select">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value={value}
        disabled={disabled}
        onChange={(event) => {
          if (event.target.value === NEW_FOLDER) setNaming(true);
          else onChange(event.target.value);
        }}
      >
        {options.map((folder) => (
          <option key={folder} value={folder}>
            {folder}
          </option>
        ))}
        {onCreate && <option value={NEW_FOLDER}>New folder…</option>}
      </select>
    </div>
  );
}
