import { type ReactNode, useEffect, useId, useRef } from 'react';
import { AvatarPreview } from './Avatar.tsx';
import { useObjectUrl } from './useObjectUrl.ts';

/** The picture types a member may pick; the server reads the file's content and decides. */
const IMAGE_TYPES = 'image/jpeg,image/png,image/webp,image/gif,image/avif,image/heic,image/heif';

interface PictureFieldProps {
  label: string;
  file: File | null;
  /** The preview's alternative text while a file is chosen. */
  previewAlt: string;
  /** Shown while no file is chosen (the current picture). */
  fallback?: ReactNode;
  /** Class of the row holding the preview and the input. */
  className: string;
  error?: string | undefined;
  /** Why the input is disabled (offline), tied to it by id. */
  disabledReason?: { title: string; id: string } | null;
  onPick: (file: File | null) => void;
}

/** A picture input with a preview of the chosen file and its error, as `data-field="profilePic"`. */
export function PictureField({
  label,
  file,
  previewAlt,
  fallback = null,
  className,
  error,
  disabledReason = null,
  onPick,
}: PictureFieldProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const preview = useObjectUrl(file);
  // Dropping the chosen file (Undo, Cancel) must clear the input too.
  useEffect(() => {
    if (!file && input.current) input.current.value = '';
  }, [file]);
  const describedBy = [error ? `${id}-error` : '', disabledReason?.id ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className="field" data-field="profilePic">
      <label htmlFor={id}>{label}</label>
      <div className={className}>
        {preview ? <AvatarPreview src={preview} alt={previewAlt} size={72} /> : fallback}
        <input
          ref={input}
          id={id}
          type="file"
          accept={IMAGE_TYPES}
          disabled={disabledReason !== null}
          title={disabledReason?.title}
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
