import './Toast.css';

/** Announced politely; the region stays in the page so screen readers hear each new message. */
export function Toast({ message }: { message: string | null }) {
  return (
    <div className="toast-region" role="status" aria-live="polite">
      {message && <div className="toast">{message}</div>}
    </div>
  );
}
