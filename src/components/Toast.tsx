import './Toast.css';

/** A button beside a toast's message, such as `Undo`. */
export interface ToastAction {
  label: string;
  onClick: () => void;
}

/** Announced politely; the region stays in the page so screen readers hear each new message. */
export function Toast({
  message,
  action,
}: {
  message: string | null;
  action?: ToastAction | null;
}) {
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {message && (
        <div className={action ? 'toast with-action' : 'toast'}>
          {message}
          {action && (
            <button type="button" className="toast-action" onClick={action.onClick}>
              {action.label}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
