import type { RefObject } from 'react';
import { useMenuButton } from './useMenuButton.ts';
import './ActionMenu.css';

export interface MenuAction {
  label: string;
  run: () => void;
  danger?: boolean;
  /** Unavailable offline: shown, focusable and described, but does nothing. */
  needsNetwork?: boolean;
  /** Shown and focusable, but done already: does nothing, and `title` says why. */
  done?: { title: string };
}

/** Why an action that needs the network does nothing now: its title and the id describing it. */
export interface OfflineNote {
  title: string;
  describedBy: string;
}

interface ActionMenuProps {
  /** The button's and the menu's accessible name. */
  label: string;
  actions: readonly MenuAction[];
  /** Set while offline: actions that need the network say so instead of running. */
  offline?: OfflineNote | null;
  /** The '⋯' button: where a dialog one of the actions opens gives focus back. */
  buttonRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * A '⋯' button with a menu of actions, on the menu-button pattern (arrow keys, Home and End;
 * Escape closes only the menu and gives focus back to the button).
 */
export function ActionMenu({ label, actions, offline = null, buttonRef }: ActionMenuProps) {
  const { open, close, buttonProps, popupProps } = useMenuButton<HTMLUListElement>({
    items: '[role="menuitem"]',
    haspopup: 'menu',
    button: buttonRef,
  });

  return (
    <div className="action-menu">
      <button {...buttonProps} aria-label={label}>
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul className="action-menu-list" role="menu" aria-label={label} {...popupProps}>
          {actions.map((action) => {
            const unavailable = offline !== null && action.needsNetwork === true;
            return (
              <li key={action.label} role="none">
                <button
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  className={action.danger ? 'danger' : undefined}
                  aria-disabled={unavailable || action.done ? true : undefined}
                  title={unavailable ? offline.title : action.done?.title}
                  aria-describedby={unavailable ? offline.describedBy : undefined}
                  onClick={() => {
                    if (unavailable || action.done) return;
                    // The item goes away with the menu: focus its button first, so focus stays
                    // where the menu was (an action that opens a dialog or a field moves it on
                    // from there, and the dialog gives it back to the button).
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
