import { type CSSProperties, type PointerEvent, type MouseEvent, useRef, useState } from 'react';

/** How far a finger travels before a touch is a swipe or a pan rather than a tap (px). */
const SLOP = 10;
/** A swipe sideways moves on past this share of the stage's width (or 60 px, whichever is more). */
const MOVE_SHARE = 0.2;
const MOVE_MIN = 60;
/** A swipe down closes past this share of the stage's height (or 80 px, whichever is more). */
const CLOSE_SHARE = 0.2;
const CLOSE_MIN = 80;
/** Two taps this close in time (ms) and place (px) are a double tap. */
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_DISTANCE = 30;
const DOUBLE_TAP_SCALE = 2.5;
const MAX_SCALE = 4;

interface View {
  x: number;
  y: number;
  scale: number;
  /** Gliding back into place (or to a zoom) rather than following a finger. */
  settling: boolean;
}
const REST: View = { x: 0, y: 0, scale: 1, settling: true };

interface Point {
  x: number;
  y: number;
}

type Gesture =
  | { kind: 'none' }
  /** One finger down, not moved past SLOP yet: a tap so far. */
  | { kind: 'pending'; start: Point; from: View }
  | { kind: 'swipe'; axis: 'x' | 'down'; start: Point }
  | { kind: 'pan'; start: Point; from: View }
  | { kind: 'pinch'; distance: number; middle: Point; from: View };

const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
const middle = (a: Point, b: Point) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

interface Options {
  /** The image shown: a new one starts unzoomed and in place. */
  imageId: string;
  /** Whether there is an image that way (1 next, -1 previous). */
  canMove: (step: 1 | -1) => boolean;
  onMove: (step: 1 | -1) => void;
  onClose: () => void;
}

/**
 * Touch (and pen or mouse) on the viewer's stage (docs/product.md "Image viewer"): the photo
 * follows a finger sideways and moves on past a threshold, follows it down and closes past
 * another, and snaps back below them. Two fingers pinch-zoom, one pans a zoomed photo, and a
 * double tap zooms in where it lands, or back out.
 */
export function useViewerGestures({ imageId, canMove, onMove, onClose }: Options) {
  const [state, setState] = useState({ imageId, view: REST });
  const view = state.imageId === imageId ? state.view : REST;
  if (state.imageId !== imageId) setState({ imageId, view: REST });
  const setView = (next: View) => setState({ imageId, view: next });

  const pointers = useRef(new Map<number, Point>());
  const gesture = useRef<Gesture>({ kind: 'none' });
  const lastTap = useRef<{ time: number; at: Point } | null>(null);
  /** A gesture moved the photo: the click that follows it is no press of a button. */
  const swallowClick = useRef(false);

  const startPinch = () => {
    const [a, b] = [...pointers.current.values()];
    if (!a || !b) return;
    gesture.current = { kind: 'pinch', distance: distance(a, b), middle: middle(a, b), from: view };
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    swallowClick.current = false;
    if (pointers.current.size === 2) {
      event.currentTarget.setPointerCapture(event.pointerId);
      startPinch();
    } else if (pointers.current.size === 1) {
      gesture.current = {
        kind: 'pending',
        start: { x: event.clientX, y: event.clientY },
        from: view,
      };
    }
  };

  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (!pointers.current.has(event.pointerId)) return;
    const at = { x: event.clientX, y: event.clientY };
    pointers.current.set(event.pointerId, at);
    const current = gesture.current;
    if (current.kind === 'pinch') {
      const [a, b] = [...pointers.current.values()];
      if (!a || !b) return;
      const scale = Math.min(
        MAX_SCALE,
        Math.max(1, (current.from.scale * distance(a, b)) / current.distance),
      );
      const now = middle(a, b);
      setView({
        x: current.from.x + now.x - current.middle.x,
        y: current.from.y + now.y - current.middle.y,
        scale,
        settling: false,
      });
      return;
    }
    if (current.kind === 'pending') {
      const dx = at.x - current.start.x;
      const dy = at.y - current.start.y;
      if (Math.hypot(dx, dy) < SLOP) return;
      // From here on the stage follows this finger wherever it goes, and no button is pressed.
      event.currentTarget.setPointerCapture(event.pointerId);
      swallowClick.current = true;
      if (current.from.scale > 1)
        gesture.current = { kind: 'pan', start: current.start, from: current.from };
      else if (Math.abs(dx) >= Math.abs(dy))
        gesture.current = { kind: 'swipe', axis: 'x', start: current.start };
      else if (dy > 0) gesture.current = { kind: 'swipe', axis: 'down', start: current.start };
      else {
        gesture.current = { kind: 'none' };
        return;
      }
    }
    const moving = gesture.current;
    if (moving.kind === 'swipe') {
      const dx = at.x - moving.start.x;
      const dy = at.y - moving.start.y;
      setView(
        moving.axis === 'x'
          ? { x: dx, y: 0, scale: 1, settling: false }
          : { x: 0, y: Math.max(0, dy), scale: 1, settling: false },
      );
    } else if (moving.kind === 'pan') {
      setView({
        x: moving.from.x + at.x - moving.start.x,
        y: moving.from.y + at.y - moving.start.y,
        scale: moving.from.scale,
        settling: false,
      });
    }
  };

  const onPointerEnd = (event: PointerEvent<HTMLElement>) => {
    const at = pointers.current.get(event.pointerId);
    if (!at) return;
    pointers.current.delete(event.pointerId);
    const cancelled = event.type === 'pointercancel';
    const current = gesture.current;
    const stage = event.currentTarget.getBoundingClientRect();
    if (current.kind === 'pinch') {
      const [left] = [...pointers.current.entries()];
      if (view.scale <= 1.05) setView(REST);
      // The finger still down goes on panning the zoomed photo.
      gesture.current =
        left && view.scale > 1.05 ? { kind: 'pan', start: left[1], from: view } : { kind: 'none' };
      return;
    }
    gesture.current = { kind: 'none' };
    if (current.kind === 'swipe') {
      if (cancelled) setView(REST);
      else if (current.axis === 'x') {
        const dx = at.x - current.start.x;
        const step = dx < 0 ? 1 : -1;
        if (Math.abs(dx) > Math.max(MOVE_MIN, stage.width * MOVE_SHARE) && canMove(step)) {
          onMove(step);
        } else setView(REST);
      } else if (at.y - current.start.y > Math.max(CLOSE_MIN, stage.height * CLOSE_SHARE)) {
        onClose();
      } else setView(REST);
      return;
    }
    if (current.kind !== 'pending' || cancelled || event.pointerType === 'mouse') return;
    // A tap: the second of two close together zooms in where it lands, or back out.
    const tap = lastTap.current;
    if (
      tap &&
      event.timeStamp - tap.time < DOUBLE_TAP_MS &&
      distance(tap.at, at) < DOUBLE_TAP_DISTANCE
    ) {
      lastTap.current = null;
      swallowClick.current = true;
      if (view.scale > 1) setView(REST);
      else {
        const centre = { x: stage.left + stage.width / 2, y: stage.top + stage.height / 2 };
        setView({
          x: (centre.x - at.x) * (DOUBLE_TAP_SCALE - 1),
          y: (centre.y - at.y) * (DOUBLE_TAP_SCALE - 1),
          scale: DOUBLE_TAP_SCALE,
          settling: true,
        });
      }
    } else lastTap.current = { time: event.timeStamp, at };
  };

  const onClickCapture = (event: MouseEvent<HTMLElement>) => {
    if (!swallowClick.current) return;
    swallowClick.current = false;
    event.preventDefault();
    event.stopPropagation();
  };

  const drop = view.scale === 1 && view.x === 0 ? view.y : 0;
  const imageStyle: CSSProperties = {
    transform: `translate(${view.x}px, ${view.y}px) scale(${view.scale})`,
    transition: view.settling ? 'transform 0.2s ease-out, opacity 0.2s ease-out' : 'none',
    // Pulled down, the photo fades as it goes: letting go closes the viewer.
    opacity: drop > 0 ? Math.max(0.3, 1 - drop / 400) : 1,
  };

  return {
    zoomed: view.scale > 1,
    imageStyle,
    stageProps: {
      onPointerDown,
      onPointerMove,
      onPointerUp: onPointerEnd,
      onPointerCancel: onPointerEnd,
      onClickCapture,
    },
  };
}
