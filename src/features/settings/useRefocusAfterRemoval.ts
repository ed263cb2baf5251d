import { useEffect, useRef } from 'react';

/**
 * Focus for a list whose rows a button removes: once `rows` changes after a removal, focus goes to
 * the button now at the removed row's place (or the last one), or to the section's title
 * (`titleId`) once the list is empty. Set `refocusAtRef.current` to the row's index when removing.
 */
export function useRefocusAfterRemoval(titleId: string, rows: unknown) {
  const listRef = useRef<HTMLUListElement>(null);
  const refocusAtRef = useRef<number | null>(null);
  useEffect(() => {
    const at = refocusAtRef.current;
    if (at === null) return;
    refocusAtRef.current = null;
    const buttons = listRef.current?.querySelectorAll<HTMLElement>('button') ?? [];
    const next = buttons[Math.min(at, buttons.length - 1)];
    if (next) {
      next.focus();
      return;
    }
    const title = document.getElementById(titleId);
    title?.setAttribute('tabindex', '-1');
    title?.focus();
  }, [rows, titleId]);
  return { listRef, refocusAtRef };
}
