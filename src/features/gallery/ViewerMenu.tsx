import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { OFFLINE_REASON, OFFLINE_REASON_ID, useOffline } from '../offline/store.ts';

export interface MenuAction {
  label: string;
  run: () => void;
  danger?: boolean;
  /** Unavailable offline: shown, focusable and described, but does nothing. */
  needsNetwork?: boolean;
}

/** The viewer's '⋯' menu: a menu button with arrow-key navigation; Escape closes only the menu. */
export function ViewerMenu({ actions }: { actions: readonly MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const offline = useOffline();

  const items = () =>
    Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!list.current?.contains(target) && !button.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = items();
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
      case 'Escape':
        close();
        break;
      case 'Tab':
        setOpen(false);
        return;
      default:
        return;
    }
    // Handled here: neither the viewer's arrow keys nor its Escape see it.
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <div className="viewer-menu">
      <button
        ref={button}
        type="button"
        className="icon-button"
        aria-label="Image actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul
          className="viewer-menu-list"
          id={menuId}
          role="menu"
          aria-label="Image actions"
          ref={list}
          onKeyDown={onKeyDown}
        >
          {actions.map((action) => {
            const unavailable = offline && action.needsNetwork === true;
            return (
              <li key={action.label} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={action.danger ? 'danger' : undefined}
                  aria-disabled={unavailable || undefined}
                  title={unavailable ? OFFLINE_REASON : undefined}
                  aria-describedby={unavailable ? OFFLINE_REASON_ID : undefined}
                  onClick={() => {
                    if (unavailable) return;
                    // The item goes away with the menu: focus its button first, so it stays in
                    // the viewer (an action that opens a dialog or a field moves it on from there).
                    close();
                    action.run();
                  }}
                >
                  {action.label}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
