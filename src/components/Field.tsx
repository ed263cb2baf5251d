import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import './Field.css';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null | undefined;
  hint?: ReactNode;
  /** Shown after the input (an availability word, a button). */
  after?: ReactNode;
}

/** A labelled input whose error is announced and tied to it. */
export function Field({ label, error, hint, after, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const describedBy =
    [error ? errorId : '', hint ? hintId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="field-control">
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {after}
      </div>
      {hint && (
        <div className="field-hint" id={hintId}>
          {hint}
        </div>
      )}
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A password field with the Show/Hide toggle of SPEC §2.3. */
export function PasswordField(props: Omit<FieldProps, 'type' | 'after'>) {
  const [visible, setVisible] = useState(false);
  return (
    <Field
      {...props}
      type={visible ? 'text' : 'password'}
      after={
        <button
          type="button"
          className="field-toggle"
          aria-pressed={visible}
          aria-label={
            visible ? `Hide ${props.label.toLowerCase()}` : `Show ${props.label.toLowerCase()}`
          }
          onClick={() => setVisible((value) => !value)}
        >
          {visible ? 'Hide' : 'Show'}
        </button>
      }
    />
  );
}
