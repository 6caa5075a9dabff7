import { type DragEvent, useState } from "react";

/** Whether a drag carries files (not text or a link dragged from the page). */
function carriesFiles(e: DragEvent) {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

/**
 * Files dragged onto an element: the handlers to spread on it and whether files are over it. `onFiles` null
 * (a closed ticket) leaves drops to the browser's default, which the page ignores.
 */
export function useFileDrop(onFiles: ((files: File[]) => void) | null) {
  const [over, setOver] = useState(false);
  if (!onFiles) return { over: false, handlers: {} };
  return {
    over,
    handlers: {
      onDragOver(e: DragEvent) {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setOver(true);
      },
      onDragLeave(e: DragEvent) {
        // Leaving for one of its own children is still over it.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      },
      onDrop(e: DragEvent) {
        if (!carriesFiles(e)) return;
        e.preventDefault();
        setOver(false);
        onFiles(Array.from(e.dataTransfer.files));
      },
    },
  };
}
