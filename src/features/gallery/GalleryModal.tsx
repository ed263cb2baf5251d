import { type KeyboardEvent, type ReactNode, useEffect, useRef } from 'react';

interface GalleryModalProps {
  className: string;
  label: string;
  onClose: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  children: ReactNode;
}

/**
 * A large modal on the native <dialog>, open while mounted: the page behind is inert, Escape and a
 * click on the backdrop close it, and focus returns to where it was when it opened.
 */
export function GalleryModal({
  className,
  label,
  onClose,
  onKeyDown,
  children,
}: GalleryModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`gallery-modal ${className}`}
      aria-label={label}
      onCancel={(event) => {
        // React lets a nested dialog's cancel bubble here; only this dialog's own counts.
        if (event.target !== ref.current) return;
        event.preventDefault();
        onClose();
      }}
      onClose={(event) => {
        // The browser may close a dialog on its own (a second Escape); follow it unless it was reopened.
        if (event.target === ref.current && !ref.current.open) onClose();
      }}
      onClick={(event) => {
        if (event.target === ref.current) onClose();
      }}
      onKeyDown={onKeyDown}
    >
      {children}
    </dialog>
  );
}
