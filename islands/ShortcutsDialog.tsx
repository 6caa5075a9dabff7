import { useEffect } from "react";
import { useT } from "./lib/i18n-context";
import { Modal } from "./lib/modal";

/** The keyboard shortcuts the inbox has, each as the keys (shown as `<kbd>`) and what they do (a key under shortcuts.*). */
const SHORTCUTS: { keys: string[][]; action: string }[] = [
  { keys: [["?"]], action: "help" },
  {
    keys: [
      ["Alt", "↑"],
      ["Alt", "↓"],
    ],
    action: "previousNextTicket",
  },
  { keys: [["Enter"]], action: "send" },
  { keys: [["Shift", "Enter"]], action: "newLine" },
  { keys: [["/"]], action: "quickAnswers" },
  { keys: [["↑"], ["↓"], ["Enter"]], action: "pickQuickAnswer" },
  { keys: [["Alt", "I"]], action: "aiSuggest" },
  { keys: [["Enter"], ["Shift", "Enter"]], action: "searchMatches" },
  { keys: [["Esc"]], action: "close" },
];

/** Whether a key press was typed into a field (where "?" is text, not a shortcut). */
function typedInField(target: EventTarget | null) {
  const el = target as HTMLElement | null;
  return !!el && (el.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(el.tagName));
}

/** Calls `open` when "?" is pressed outside a text field and outside any open dialog, anywhere on the page. */
export function useShortcutsKey(open: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || typedInField(e.target)) return;
      // Not over another dialog (a confirmation, the contact drawer).
      if (document.querySelector("dialog[open]")) return;
      e.preventDefault();
      open();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [open]);
}

/** The list of keyboard shortcuts, opened with "?" or from the user menu. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  return (
    <Modal title={t("shortcuts.title")} onClose={onClose}>
      <dl className="shortcut-list">
        {SHORTCUTS.map(({ keys, action }) => (
          <div key={action}>
            <dt>
              {keys.map((combo, i) => (
                <span key={combo.join("+")}>
                  {i > 0 && " "}
                  {combo.map((key, j) => (
                    <span key={key}>
                      {j > 0 && "+"}
                      <kbd>{key}</kbd>
                    </span>
                  ))}
                </span>
              ))}
            </dt>
            <dd>{t(`shortcuts.${action}`)}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
