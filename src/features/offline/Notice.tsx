interface NoticeProps {
  /** The notice's name as a landmark (an `aside`); without one it is a plain block in its region. */
  label?: string;
  text: string;
  /** The primary button, for a notice that offers something. */
  action?: { label: string; onClick: () => void };
  /** The close button's accessible name. */
  closeLabel: string;
  onClose: () => void;
}

/** An app notice: one line of text, the button of what it offers if any, and a close button. */
export function Notice({ label, text, action, closeLabel, onClose }: NoticeProps) {
  const content = (
    <>
      <p className="notice-text">{text}</p>
      {action && (
        <button type="button" className="button primary" onClick={action.onClick}>
          {action.label}
        </button>
      )}
      <button
        type="button"
        className="icon-button notice-close"
        aria-label={closeLabel}
        onClick={onClose}
      >
        <span aria-hidden="true">✕</span>
      </button>
    </>
  );
  return label ? (
    <aside className="notice" aria-label={label}>
      {content}
    </aside>
  ) : (
    <div className="notice">{content}</div>
  );
}
