import { type MouseEvent, type PointerEvent, useRef } from "react";

const HOLD_MS = 500;
/** A finger that moves further than this scrolls: no long-press. */
const SLOP_PX = 10;

/**
 * Handlers that call `onLongPress` when a finger rests on the element for half a second (touch only: a mouse has
 * hover and right-click). The browser's own long-press menu is held back meanwhile.
 */
export function useLongPress(onLongPress: () => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const cancel = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  };
  return {
    onPointerDown(e: PointerEvent) {
      if (e.pointerType !== "touch") return;
      cancel();
      start.current = { x: e.clientX, y: e.clientY };
      timer.current = setTimeout(() => {
        timer.current = null;
        onLongPress();
      }, HOLD_MS);
    },
    onPointerMove(e: PointerEvent) {
      const from = start.current;
      if (from && Math.hypot(e.clientX - from.x, e.clientY - from.y) > SLOP_PX) cancel();
    },
    onPointerUp: cancel,
    onPointerCancel: cancel,
    onContextMenu(e: MouseEvent) {
      if (start.current) e.preventDefault();
    },
  };
}
