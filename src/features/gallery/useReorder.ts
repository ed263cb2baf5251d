/**
 * Reordering the owner's grid with a handle (docs/product.md "Gallery"): by pointer (drag the handle over
 * another photo) or by keyboard (Space picks up, arrows move, Space or Enter drops, Escape cancels).
 * The order shown is a preview until the drop; moves are announced for screen readers.
 */
import { type KeyboardEvent, type PointerEvent, useLayoutEffect, useState } from 'react';
import { moveItem } from './images.ts';

interface Drag {
  id: string;
  by: 'pointer' | 'keyboard';
  order: string[];
}

/** Where a keyboard move takes a photo: left/right by one, up/down by a row, within the list. */
export function keyboardTarget(
  key: string,
  index: number,
  length: number,
  columns: number,
): number | null {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -columns, ArrowDown: columns }[key];
  if (step === undefined) return null;
  return Math.min(Math.max(index + step, 0), length - 1);
}

export function useReorder(
  ids: readonly string[],
  columns: number,
  onCommit: (order: string[]) => void,
) {
  const [drag, setDrag] = useState<Drag | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const order = drag?.order ?? ids;
  const position = (id: string, list: readonly string[] = order) => list.indexOf(id) + 1;

  // Moving a focused element in the DOM loses its focus; a keyboard move gives it back.
  useLayoutEffect(() => {
    if (drag?.by !== 'keyboard') return;
    document.querySelector<HTMLElement>(`[data-reorder-handle="${CSS.escape(drag.id)}"]`)?.focus();
  }, [drag]);

  const drop = (current: Drag) => {
    setDrag(null);
    const changed = current.order.some((id, index) => id !== ids[index]);
    setAnnouncement(
      changed
        ? `Photo dropped at position ${position(current.id, current.order)} of ${current.order.length}.`
        : 'Photo dropped in its place.',
    );
    if (changed) onCommit(current.order);
  };
  const cancel = () => {
    setDrag(null);
    setAnnouncement('Reordering cancelled.');
  };
  const moveTo = (current: Drag, target: number) => {
    const from = current.order.indexOf(current.id);
    if (target === from || target < 0) return;
    setDrag({ ...current, order: moveItem(current.order, from, target) });
    return true;
  };

  const onKeyDown = (id: string) => (event: KeyboardEvent<HTMLElement>) => {
    const key = event.key;
    if (!drag) {
      if (key !== ' ' && key !== 'Enter') return;
      event.preventDefault();
      setDrag({ id, by: 'keyboard', order: [...ids] });
      setAnnouncement(
        `Picked up photo ${position(id, ids)} of ${ids.length}. Use the arrow keys to move it, Space to drop it, Escape to cancel.`,
      );
      return;
    }
    if (drag.id !== id) return;
    if (key === ' ' || key === 'Enter') {
      event.preventDefault();
      drop(drag);
    } else if (key === 'Escape') {
      // Cancelling a move must not also close a dialog around the grid.
      event.preventDefault();
      event.stopPropagation();
      cancel();
    } else {
      const target = keyboardTarget(key, drag.order.indexOf(id), drag.order.length, columns);
      if (target === null) return;
      event.preventDefault();
      if (moveTo(drag, target))
        setAnnouncement(`Photo moved to position ${target + 1} of ${drag.order.length}.`);
    }
  };

  const onPointerDown = (id: string) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    setDrag({ id, by: 'pointer', order: [...ids] });
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (drag?.by !== 'pointer') return;
    const over = document
      .elementFromPoint(event.clientX, event.clientY)
      ?.closest<HTMLElement>('[data-reorder-id]')?.dataset.reorderId;
    if (over && over !== drag.id) moveTo(drag, drag.order.indexOf(over));
  };
  const onPointerUp = () => {
    if (drag?.by === 'pointer') drop(drag);
  };
  const onPointerCancel = () => {
    if (drag?.by === 'pointer') cancel();
  };
  // Leaving the handle (Tab, a click elsewhere) cancels a keyboard move. A move itself blurs the
  // handle for an instant while the DOM is rearranged, so look again once focus has settled.
  const onBlur = () => {
    if (drag?.by !== 'keyboard') return;
    const id = drag.id;
    setTimeout(() => {
      if (document.activeElement?.getAttribute('data-reorder-handle') === id) return;
      setDrag((current) => (current?.by === 'keyboard' && current.id === id ? null : current));
    }, 0);
  };

  return {
    order,
    dragging: drag?.id ?? null,
    announcement,
    handleProps: (id: string) => ({
      'data-reorder-handle': id,
      'aria-pressed': drag?.id === id,
      onKeyDown: onKeyDown(id),
      onPointerDown: onPointerDown(id),
      onPointerMove,
      onPointerUp,
      onPointerCancel,
      onBlur,
    }),
  };
}
