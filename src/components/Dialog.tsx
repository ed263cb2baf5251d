import {
  type ButtonHTMLAttributes,
  type ReactNode,
  type Ref,
  type RefObject,
  useEffect,
  useId,
  useRef,
} from 'react';
import { breakable } from './breakable.tsx';
import './Dialog.css';

interface DialogProps {
  open: boolean;
  title: ReactNode;
  onClose: () => void;
  /** What the dialog says, ending with its `DialogActions`. */
  children: ReactNode;
  /** A × button beside the title, named by this label. */
  closeLabel?: string;
  /** Classes of the dialog and of its panel, for a dialog with a look of its own. */
  className?: string;
  bodyClassName?: string;
  /** Where focus goes once the dialog closed, when what opened it may be gone. */
  returnFocus?: RefObject<HTMLElement | null> | undefined;
}

/**
 * A modal dialog on the native element: the page behind is inert, focus stays inside, Escape and
 * a click on the backdrop close it, and focus goes back to where it was (or to `returnFocus`).
 * Its content is rendered only while it is open.
 */
export function Dialog({
  open,
  title,
  onClose,
  children,
  closeLabel,
  className = 'dialog',
  bodyClassName = 'dialog-body',
  returnFocus,
}: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) {
      dialog.close();
      // Only once the dialog is closed is the page behind it focusable again.
      returnFocus?.current?.focus();
    }
  }, [open, returnFocus]);
  const heading = <h2 id={titleId}>{typeof title === 'string' ? breakable(title) : title}</h2>;
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        // A dialog opened from another closes alone.
        event.stopPropagation();
        onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
    >
      {open && (
        <div className={bodyClassName}>
          {closeLabel ? (
            <header className="dialog-head">
              {heading}
              <button
                type="button"
                className="close-button"
                aria-label={closeLabel}
                onClick={onClose}
              >
                ×
              </button>
            </header>
          ) : (
            heading
          )}
          {children}
        </div>
      )}
    </dialog>
  );
}

/** The button that does what a dialog asks: its text and the attributes of its own. */
interface ConfirmButton extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'className'> {
  label: ReactNode;
  /** What cannot be undone (block, delete, suspend) is red; anything else is the primary button. */
  danger?: boolean;
  /** Said to assistive technology (`aria-busy`) while the call is under way. */
  busy?: boolean;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A dialog's foot: Cancel, which closes without doing anything, then the button that does what
 * the dialog asks, in that focus order. Without `onCancel` only the confirming button is shown.
 */
export function DialogActions({
  onCancel,
  cancelDisabled,
  error,
  errorId,
  confirm: { label, danger, busy, ...button },
}: {
  onCancel?: () => void;
  cancelDisabled?: boolean;
  /** Why the last try failed, announced above the buttons. */
  error?: string | null;
  errorId?: string;
  confirm: ConfirmButton;
}) {
  return (
    <>
      {error && (
        <p className="form-error dialog-error" id={errorId} role="alert">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        {onCancel && (
          <button type="button" className="button" onClick={onCancel} disabled={cancelDisabled}>
            Cancel
          </button>
        )}
        <button
          type="button"
          className={danger ? 'button danger' : 'button primary'}
          aria-busy={busy || undefined}
          {...button}
        >
          {label}
        </button>
      </div>
    </>
  );
}
