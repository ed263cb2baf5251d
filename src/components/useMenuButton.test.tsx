import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useMenuButton } from './useMenuButton.ts';

function Actions({ onOuterKey }: { onOuterKey: (key: string) => void }) {
  const { open, close, buttonProps, popupProps } = useMenuButton<HTMLUListElement>({
    items: '[role="menuitem"]',
    haspopup: 'menu',
  });
  return (
    <div onKeyDown={(event) => onOuterKey(event.key)} role="presentation">
      <button {...buttonProps} aria-label="Actions">
        ⋯
      </button>
      {open && (
        <ul role="menu" aria-label="Actions" {...popupProps}>
          {['Share', 'Edit', 'Delete'].map((label) => (
            <li key={label} role="none">
              <button type="button" role="menuitem" tabIndex={-1} onClick={close}>
                {label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <p>outside</p>
    </div>
  );
}

afterEach(cleanup);

function openMenu() {
  const outer: string[] = [];
  render(<Actions onOuterKey={(key) => outer.push(key)} />);
  const button = screen.getByRole('button', { name: 'Actions' });
  fireEvent.click(button);
  return { button, outer, item: (name: string) => screen.getByRole('menuitem', { name }) };
}

describe('a menu button', () => {
  it('says it opens a menu and whether it is open', () => {
    render(<Actions onOuterKey={() => undefined} />);
    const button = screen.getByRole('button', { name: 'Actions' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe(screen.getByRole('menu').id);
  });

  it('focuses the first item; the arrows wrap, Home and End jump, and the keys go no further', () => {
    const { item, outer } = openMenu();
    expect(document.activeElement).toBe(item('Share'));
    const menu = screen.getByRole('menu');
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(item('Delete'));
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(item('Share'));
    fireEvent.keyDown(menu, { key: 'End' });
    expect(document.activeElement).toBe(item('Delete'));
    fireEvent.keyDown(menu, { key: 'Home' });
    expect(document.activeElement).toBe(item('Share'));
    fireEvent.keyDown(menu, { key: 'x' });
    expect(outer).toEqual(['x']);
  });

  it('closes on Escape, gives focus back to the button, and lets nothing around see the key', () => {
    const { button, outer } = openMenu();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(outer).toEqual([]);
  });

  it('closes on a click outside and on Tab', () => {
    const { button } = openMenu();
    fireEvent.pointerDown(screen.getByText('outside'));
    expect(screen.queryByRole('menu')).toBeNull();
    fireEvent.click(button);
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Tab' });
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
