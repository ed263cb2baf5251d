import {
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { useCharCount } from './useCharCount.tsx';
import './Field.css';

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> {
  label: string;
  error?: string | null | undefined;
  hint?: ReactNode;
  /** Shown after the input (an availability word, a button). */
  after?: ReactNode;
  /** Announce the error as it appears while typing, not only when the form is sent. */
  liveError?: boolean;
}

/** A field's error, inside a polite live region when it can appear while the member types. */
function FieldError({
  id,
  error,
  live,
}: {
  id: string;
  error: string | null | undefined;
  live: boolean;
}) {
  const message = error ? (
    <p className="field-error" id={id}>
      {error}
    </p>
  ) : null;
  return live ? <div aria-live="polite">{message}</div> : message;
}

/**
 * A labelled input whose error is announced and tied to it. With a maxLength and a value it also
 * counts the characters left as the member nears the limit.
 */
export function Field({ label, error, hint, after, liveError = false, ...input }: FieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const count = useCharCount(
    typeof input.value === 'string' ? input.value : '',
    input.maxLength ?? Number.POSITIVE_INFINITY,
  );
  const describedBy =
    [error ? errorId : '', hint ? hintId : '', count.describedBy ?? ''].filter(Boolean).join(' ') ||
    undefined;
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
      {count.counter}
      <FieldError id={errorId} error={error} live={liveError} />
    </div>
  );
}

/** A password field with the Show/Hide toggle of docs/product.md "Login". */
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

interface TextAreaFieldProps extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> {
  label: string;
  value: string;
  maxLength: number;
  error?: string | null | undefined;
  /** Announce the error when it appears (a failed save the member did not move to). */
  liveError?: boolean;
}

/** A labelled textarea that stops at its limit and counts the characters left near it. */
export function TextAreaField({
  label,
  error,
  liveError = false,
  className,
  ...textarea
}: TextAreaFieldProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const count = useCharCount(textarea.value, textarea.maxLength);
  const describedBy =
    [error ? errorId : '', count.describedBy ?? ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...textarea}
      />
      {count.counter}
      <FieldError id={errorId} error={error} live={liveError} />
    </div>
  );
}
