import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionMenu, type MenuAction, type OfflineNote } from './ActionMenu.tsx';

afterEach(cleanup);

const note: OfflineNote = { title: 'Needs a connection.', describedBy: 'offline-reason' };

function menu(actions: MenuAction[], offline: OfflineNote | null = null) {
  render(<ActionMenu label="More actions for @vega" actions={actions} offline={offline} />);
  const button = screen.getByRole('button', { name: 'More actions for @vega' });
  fireEvent.click(button);
  return button;
}

describe('a ⋯ menu of actions', () => {
  it('is named by its caller, the button and the menu alike', () => {
    const button = menu([{ label: 'Report', run: vi.fn() }]);
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.getByRole('menu', { name: 'More actions for @vega' })).toBeTruthy();
  });

  it('runs a chosen action after closing, with focus back on its button', () => {
    let focusedWhenRun: Element | null = null;
    const run = vi.fn(() => {
      focusedWhenRun = document.activeElement;
    });
    const button = menu([{ label: 'Block @vega', run, danger: true }]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Block @vega' }));
    expect(run).toHaveBeenCalledOnce();
    expect(focusedWhenRun).toBe(button);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('offline, keeps an action that needs the network in view, says why and does not run it', () => {
    const report = vi.fn();
    const share = vi.fn();
    menu(
      [
        { label: 'Report', run: report, needsNetwork: true },
        { label: 'Share link', run: share },
      ],
      note,
    );
    const item = screen.getByRole('menuitem', { name: 'Report' });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    expect(item.getAttribute('title')).toBe(note.title);
    expect(item.getAttribute('aria-describedby')).toBe(note.describedBy);
    fireEvent.click(item);
    expect(report).not.toHaveBeenCalled();
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Share link' }));
    expect(share).toHaveBeenCalledOnce();
  });
});
