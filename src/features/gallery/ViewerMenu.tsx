import { useMenuButton } from '../../components/useMenuButton.ts';
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
  const { open, close, buttonProps, popupProps } = useMenuButton<HTMLUListElement>({
    items: '[role="menuitem"]',
    haspopup: 'menu',
  });
  const offline = useOffline();

  return (
    <div className="viewer-menu">
      <button {...buttonProps} aria-label="Image actions">
        <span aria-hidden="true">⋯</span>
      </button>
      {open && (
        <ul className="viewer-menu-list" role="menu" aria-label="Image actions" {...popupProps}>
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
