import { signal } from "@preact/signals-react";

export interface Toast {
  id: number;
  kind: "success" | "error" | "info";
  text: string;
  /** A button in the toast (Undo): pressing it runs `run` and closes the toast. */
  action?: { label: string; run: () => void };
}

/** Visible toasts; the client entry renders them in a live region. */
export const toasts = signal<Toast[]>([]);
const AUTO_CLOSE_MS = 3000;
let nextId = 1;

/** Shows a toast that closes itself after 3 s, or after `ms`. */
export function toast(kind: Toast["kind"], text: string, opts: { action?: Toast["action"]; ms?: number } = {}) {
  const id = nextId++;
  toasts.value = [...toasts.value, { id, kind, text, action: opts.action }];
  setTimeout(() => dismiss(id), opts.ms ?? AUTO_CLOSE_MS);
}

/** Removes one toast. */
export function dismiss(id: number) {
  toasts.value = toasts.value.filter((t) => t.id !== id);
}
