import { useEffect, useState } from "react";
import type { QuickAnswer } from "../../src/shared/contracts";
import { api } from "../lib/api";
import { useT } from "../lib/i18n-context";

const DEBOUNCE_MS = 300;

export type { QuickAnswer };

/** Composer text starting with `/` lists matching quick answers (GET /quickAnswers?searchParam=); picking one inserts its message. */
export function QuickAnswerPicker({ text, onPick }: { text: string; onPick: (message: string) => void }) {
  const t = useT();
  const [items, setItems] = useState<QuickAnswer[]>([]);
  const active = text.startsWith("/") && !text.includes("\n");
  const query = active ? text.slice(1).trim().toLowerCase() : "";

  useEffect(() => {
    if (!active) return setItems([]);
    const ctrl = new AbortController();
    const id = setTimeout(() => {
      api<{ quickAnswers: QuickAnswer[] }>(
        `/quickAnswers?${new URLSearchParams(query ? { searchParam: query } : {})}`,
        { signal: ctrl.signal },
      )
        .then((res) => setItems(res.quickAnswers))
        .catch(() => setItems([]));
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(id);
      ctrl.abort();
    };
  }, [active, query]);

  if (!active || items.length === 0) return null;
  return (
    <div className="quick-picker" role="listbox" aria-label={t("agent.quickAnswers.picker")}>
      {items.map((q) => (
        <button key={q.id} type="button" role="option" aria-selected="false" onClick={() => onPick(q.message)}>
          <strong>/{q.shortcut}</strong>
          <span>{q.message}</span>
        </button>
      ))}
    </div>
  );
}
