import { type MouseEvent, type PointerEvent, type TouchEvent, useRef } from "react";

const HOLD_MS = 500;
/** A finger that moves further than this scrolls: no long-press. */
const SLOP_PX = 10;

/**
 * Handlers that call `onLongPress` when a finger rests on the element for half a second (touch only: a mouse has
 * hover and right-click). The browser's own long-press menu is held back meanwhile, and the mouse events a
 * browser makes up when that finger lifts are dropped: they would press whatever is under it, or close the menu
 * just opened.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const pressed = useRef(false);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  return {
    onPointerDown(e: PointerEvent) {
      if (e.pointerType !== "touch") return;
      cancel();
      pressed.current = false;
      start.current = { x: e.clientX, y: e.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        pressed.current = true;
        onLongPress();
      }, HOLD_MS);
    },
    onPointerMove(e: PointerEvent) {
      const from = start.current;
      if (from && Math.hypot(e.clientX - from.x, e.clientY - from.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onTouchEnd(e: TouchEvent) {
      if (pressed.current && e.cancelable) e.preventDefault();
      pressed.current = false;
    },
    onContextMenu(e: MouseEvent) {
      if (start.current || pressed.current) e.preventDefault();
    },
  };
}
