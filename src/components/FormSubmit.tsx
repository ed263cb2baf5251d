/** A form's error, announced as it appears, and its submit button, which reads `busyLabel` while sending. */
export function FormSubmit({
  error,
  busy,
  label,
  busyLabel,
}: {
  error: string | null;
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="button primary wide" disabled={busy}>
        {busy ? busyLabel : label}
      </button>
    </>
  );
}
