import {
  type KeyboardEvent,
  type RefObject,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';

/**
 * A button that opens a popup of items, on the menu-button pattern: the first item takes focus on
 * open; ArrowDown/ArrowUp (wrapping), Home and End move between items; Escape closes and gives focus
 * back to the button; Tab and a click outside close. Keys it handles go no further, so a viewer or
 * dialog around it never sees them.
 */
export function useMenuButton<Popup extends HTMLElement>({
  items,
  haspopup,
  button: given,
}: {
  /** The button's ref, for a dialog an item opens to give focus back to. */
  button?: RefObject<HTMLButtonElement | null> | undefined;
  /** Selects the items inside the popup. */
  items: string;
  /** `menu` for a role="menu" popup of actions; none for a disclosure (a navigation list). */
  haspopup?: 'menu';
}) {
  const [open, setOpen] = useState(false);
  const popupId = useId();
  const own = useRef<HTMLButtonElement>(null);
  const button = given ?? own;
  const popup = useRef<Popup>(null);
  const list = useCallback(
    () => Array.from(popup.current?.querySelectorAll<HTMLElement>(items) ?? []),
    [items],
  );
  const close = useCallback(() => {
    setOpen(false);
    button.current?.focus();
  }, [button]);

  useEffect(() => {
    if (!open) return;
    list()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!popup.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    // Escape closes wherever focus is (a click need not focus the button in every browser).
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      event.stopPropagation();
      close();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey, true);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey, true);
    };
  }, [open, list, close, button]);

  const onKeyDown = (event: KeyboardEvent<Popup>) => {
    const all = list();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const go = (index: number) => all[(index + all.length) % all.length]?.focus();
    switch (event.key) {
      case 'ArrowDown':
        go(at + 1);
        break;
      case 'ArrowUp':
        go(at - 1);
        break;
      case 'Home':
        go(0);
        break;
      case 'End':
        go(all.length - 1);
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    event.preventDefault();
    event.stopPropagation();
  };

  return {
    open,
    setOpen,
    close,
    buttonProps: {
      ref: button,
      type: 'button' as const,
      className: 'icon-button',
      'aria-expanded': open,
      'aria-controls': popupId,
      ...(haspopup ? { 'aria-haspopup': haspopup } : {}),
      onClick: () => setOpen((value) => !value),
    },
    popupProps: {
      ref: popup,
      id: popupId,
      onKeyDown,
    },
  };
}
