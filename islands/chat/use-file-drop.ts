import { type DragEvent, useState } from "react";

/** Whether a drag carries files (not text or a link dragged from the page). */
function carriesFiles(e: DragEvent) {
  return Array.from(e.dataTransfer?.types ?? []).includes("Files");
}

/** Keeps the browser from opening a file dropped where files are not taken, which would leave the app. */
function refuse(e: DragEvent) {
  if (!carriesFiles(e)) return;
  e.preventDefault();
  e.dataTransfer.dropEffect = "none";
}

/**
 * Files dragged onto an element: the handlers to spread on it and whether files are over it. With `onFiles`
 * null (a closed ticket) files are refused.
 */
export function useFileDrop(onFiles: ((files: File[]) => void) | null) {
  const [over, setOver] = useState(false);
  if (!onFiles) return { over: false, handlers: { onDragOver: refuse, onDrop: refuse } };
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
