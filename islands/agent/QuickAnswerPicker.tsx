import { type KeyboardEvent, useEffect, useState } from "react";
import type { ListQuery, QuickAnswer } from "../../src/shared/contracts";
import { api, queryString } from "../lib/api";
import { useT } from "../lib/i18n-context";

const DEBOUNCE_MS = 300;

export type { QuickAnswer };

/** The quick answers a composer text starting with `/` asks for, and which of them is highlighted. */
export interface QuickAnswerList {
  /** The answers listed (empty when the list is closed). */
  items: QuickAnswer[];
  highlighted: number;
  setHighlighted: (index: number) => void;
  /** Handles ↑/↓/Enter/Tab/Esc while the text is a shortcut; true when the key was taken. */
  onKeyDown: (e: KeyboardEvent) => boolean;
  pick: (answer: QuickAnswer) => void;
}

/**
 * Composer text starting with `/` (one line) looks up matching quick answers (GET /quickAnswers?searchParam=).
 * ↑/↓ move the highlight, Enter or Tab insert it, Esc closes the list until the text changes. While the answers
 * are still being looked up Enter does nothing, so a shortcut is never sent to the customer as typed.
 */
export function useQuickAnswers(text: string, onPick: (message: string) => void): QuickAnswerList {
  const [found, setFound] = useState<{ query: string; items: QuickAnswer[] } | null>(null);
  const [highlighted, setHighlighted] = useState(0);
  const [dismissedFor, setDismissedFor] = useState<string | null>(null);
  const shortcut = text.startsWith("/") && !text.includes("\n");
  const query = shortcut ? text.slice(1).trim().toLowerCase() : "";
  const active = shortcut && dismissedFor !== text;

  useEffect(() => {
    setHighlighted(0);
    if (!active) return;
    const ctrl = new AbortController();
    const id = setTimeout(() => {
      api<{ quickAnswers: QuickAnswer[] }>(
        `/quickAnswers?${queryString<ListQuery>(query ? { searchParam: query } : {})}`,
        { signal: ctrl.signal },
      )
        .then((res) => setFound({ query, items: res.quickAnswers }))
        .catch(() => setFound({ query, items: [] }));
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(id);
      ctrl.abort();
    };
  }, [active, query]);

  const settled = found?.query === query;
  const items = active && settled ? found.items : [];

  function pick(answer: QuickAnswer) {
    setDismissedFor(null);
    onPick(answer.message);
  }

  function onKeyDown(e: KeyboardEvent): boolean {
    if (!active || e.nativeEvent.isComposing || e.altKey || e.ctrlKey || e.metaKey) return false;
    if (items.length === 0) {
      // Still looking the shortcut up: hold Enter back rather than send "/short" as typed.
      if (e.key === "Enter" && !e.shiftKey && !settled) {
        e.preventDefault();
        return true;
      }
      return false;
    }
    const last = items.length - 1;
    const take = () => {
      e.preventDefault();
      return true;
    };
    switch (e.key) {
      case "ArrowDown":
        setHighlighted(highlighted >= last ? 0 : highlighted + 1);
        return take();
      case "ArrowUp":
        setHighlighted(highlighted <= 0 ? last : highlighted - 1);
        return take();
      case "Enter":
      case "Tab":
        if (e.shiftKey) return false;
        pick(items[Math.min(highlighted, last)]!);
        return take();
      case "Escape":
        setDismissedFor(text);
        e.stopPropagation();
        return take();
      default:
        return false;
    }
  }

  return { items, highlighted: Math.min(highlighted, Math.max(0, items.length - 1)), setHighlighted, onKeyDown, pick };
}

/** The list of matching quick answers above the composer; a click inserts one too. */
export function QuickAnswerPicker({ list, id }: { list: QuickAnswerList; id: string }) {
  const t = useT();
  if (list.items.length === 0) return null;
  return (
    <div className="quick-picker" id={id} role="listbox" aria-label={t("agent.quickAnswers.picker")}>
      {list.items.map((q, i) => (
        <button
          key={q.id}
          id={`${id}-${i}`}
          type="button"
          role="option"
          tabIndex={-1}
          aria-selected={i === list.highlighted}
          className={i === list.highlighted ? "highlighted" : undefined}
          // Keeps the focus in the text box, so typing goes on after a click.
          onMouseDown={(e) => e.preventDefault()}
          onMouseEnter={() => list.setHighlighted(i)}
          onClick={() => list.pick(q)}
        >
          <strong>/{q.shortcut}</strong>
          <span>{q.message}</span>
        </button>
      ))}
    </div>
  );
}
