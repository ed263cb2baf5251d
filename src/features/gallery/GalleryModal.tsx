import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useRef } from 'react';

interface GalleryModalProps {
  className: string;
  label: string;
  onClose: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  /**
   * The control that opens it, when known: focus goes back there even if focus had left it by the
   * time the modal mounted (its code still loading while the page around it re-rendered).
   */
  returnFocus?: RefObject<HTMLElement | null> | undefined;
  children: ReactNode;
}

const FOCUSABLE = 'button:not(:disabled), a[href], select:not(:disabled), input:not(:disabled)';

/**
 * Where focus goes when what opened a modal is gone (the photo it showed was deleted): the control
 * now in the opener's place in its list, or the last one, else the first of its section.
 */
function nearestTo(opener: HTMLElement): () => HTMLElement | null {
  const item = opener.closest('li');
  const list = item?.parentElement;
  const index = item && list ? Array.from(list.children).indexOf(item) : -1;
  const section = opener.closest('section');
  return () => {
    const items = list?.isConnected ? list.children : null;
    const there = items?.[Math.min(index, items.length - 1)]?.querySelector<HTMLElement>(FOCUSABLE);
    return there ?? (section?.isConnected ? section.querySelector<HTMLElement>(FOCUSABLE) : null);
  };
}

/**
 * A large modal on the native <dialog>, open while mounted: the page behind is inert, Escape and a
 * click on the backdrop close it, and focus returns to where it was when it opened, or near there
 * when that is gone.
 */
export function GalleryModal({
  className,
  label,
  onClose,
  onKeyDown,
  returnFocus,
  children,
}: GalleryModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const nearest = opener ? nearestTo(opener) : null;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      if (dialog?.open) dialog.close();
      // Read as the modal closes: the control that opened it may have been drawn anew meanwhile.
      // eslint-disable-next-line react-hooks/exhaustive-deps
      const back = returnFocus?.current;
      if (back?.isConnected) back.focus();
      else if (opener?.isConnected) opener.focus();
      else nearest?.()?.focus();
    };
  }, [returnFocus]);
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
