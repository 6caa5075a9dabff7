import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { toast } from "../lib/toast";

/** Typing settles for this long before the history is searched. */
const TYPING_PAUSE_MS = 250;

interface SearchResult {
  /** The matching messages' ids, oldest first (the newest ones when there are many). */
  ids: number[];
  /** How many messages match in all. */
  count: number;
}

/**
 * The bar that searches the open conversation: it shows "n of m" and starts on the newest hit; ↑ or Enter goes
 * to an older hit, ↓ or Shift+Enter to a newer one, and `onFocus` brings each hit into view. Esc closes it.
 */
export function ChatSearch({
  ticketId,
  onFocus,
  onClose,
}: {
  ticketId: number;
  onFocus: (messageId: number | null) => void;
  onClose: () => void;
}) {
  const t = useT();
  const [query, setQuery] = useState("");
  const [result, setResult] = useState<SearchResult | null>(null);
  const [index, setIndex] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => input.current?.focus(), []);

  // `go` and `onFocus` only pass the hit on; a new query is what searches again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    const q = query.trim();
    if (!q) {
      setResult(null);
      onFocus(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      api<SearchResult>(`/messages/${ticketId}/search?q=${encodeURIComponent(q)}`).then(
        (res) => {
          if (!live) return;
          setResult(res);
          go(res, res.ids.length - 1);
        },
        (error) => live && toast("error", errorText(t, error)),
      );
    }, TYPING_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [query, ticketId, t]);

  function go(res: SearchResult, to: number) {
    if (!res.ids.length) return onFocus(null);
    const next = Math.min(res.ids.length - 1, Math.max(0, to));
    setIndex(next);
    onFocus(res.ids[next]!);
  }

  function close() {
    onFocus(null);
    onClose();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === "Escape") {
      e.preventDefault();
      close();
    } else if (result && (e.key === "ArrowUp" || (e.key === "Enter" && !e.shiftKey))) {
      e.preventDefault();
      go(result, index - 1);
    } else if (result && (e.key === "ArrowDown" || (e.key === "Enter" && e.shiftKey))) {
      e.preventDefault();
      go(result, index + 1);
    }
  }

  const hits = result?.ids.length ?? 0;
  // Counted so the newest hit is the last number, even when only the newest hits came back.
  const position = result && hits ? result.count - (hits - 1 - index) : 0;
  return (
    <search className="chat-search">
      <Icon name="search" size={20} />
      <input
        ref={input}
        type="search"
        value={query}
        aria-label={t("chat.search.label")}
        placeholder={t("chat.search.placeholder")}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <output className="chat-search-count" aria-live="polite">
        {result && (hits ? t("chat.search.position", { n: position, total: result.count }) : t("chat.search.none"))}
      </output>
      <button
        type="button"
        className="icon-button"
        aria-label={t("chat.search.older")}
        title={t("chat.search.older")}
        disabled={!result || index <= 0}
        onClick={() => result && go(result, index - 1)}
      >
        <Icon name="up" />
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label={t("chat.search.newer")}
        title={t("chat.search.newer")}
        disabled={!result || index >= hits - 1}
        onClick={() => result && go(result, index + 1)}
      >
        <Icon name="down" />
      </button>
      <button type="button" className="icon-button" aria-label={t("chat.search.close")} onClick={close}>
        <Icon name="close" />
      </button>
    </search>
  );
}
