import { useT } from "../lib/i18n-context";

/** Floats over the bottom of the history while customer messages arrived below the part being read; a click goes there. */
export function NewMessagesPill({ count, onClick }: { count: number; onClick: () => void }) {
  const t = useT();
  if (count === 0) return null;
  return (
    <div className="new-messages">
      <button type="button" className="new-messages-pill" onClick={onClick}>
        {t("chat.newMessages")}
      </button>
    </div>
  );
}
