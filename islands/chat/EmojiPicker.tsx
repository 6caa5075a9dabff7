import { useEffect, useRef, useState } from "react";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import type { EmojiCategory, EmojiEntry } from "./emoji-data";

type EmojiData = typeof import("./emoji-data");
type Tab = EmojiCategory | "recent";

const RECENT_KEY = "zapdesk.emoji.recent";
const RECENT_MAX = 24;
/** What each tab shows on its button. */
const TAB_ICONS: Record<Tab, string> = {
  recent: "🕘",
  smileys: "😀",
  people: "👋",
  nature: "🌻",
  food: "🍕",
  activities: "🎉",
  travel: "🚗",
  objects: "💡",
  symbols: "❤️",
};

function readRecent(): string[] {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) ?? "[]");
    return Array.isArray(list) ? list.filter((e): e is string => typeof e === "string").slice(0, RECENT_MAX) : [];
  } catch {
    return [];
  }
}

function keepRecent(emoji: string) {
  const list = [emoji, ...readRecent().filter((e) => e !== emoji)].slice(0, RECENT_MAX);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

/**
 * The smiley button of the composer and its panel: a search box (names in English, Portuguese and Spanish), one tab
 * per category plus the recently used ones, and the grid. A click puts the emoji where the caret is (through
 * `onPick`) and closes the panel; Esc or a click outside closes it too. The table loads the first time it opens.
 */
export function EmojiPicker({ disabled, onPick }: { disabled: boolean; onPick: (emoji: string) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [data, setData] = useState<EmojiData | null>(null);
  const [tab, setTab] = useState<Tab>("smileys");
  const [query, setQuery] = useState("");
  const [recent, setRecent] = useState<string[]>([]);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    if (!data) import("./emoji-data").then(setData, () => setOpen(false));
    const away = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onEscape = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      e.preventDefault();
      setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    document.addEventListener("keydown", onEscape);
    return () => {
      document.removeEventListener("pointerdown", away);
      document.removeEventListener("keydown", onEscape);
    };
  }, [open, data]);

  function toggle() {
    if (open) return setOpen(false);
    const used = readRecent();
    setRecent(used);
    setTab(used.length ? "recent" : "smileys");
    setQuery("");
    setOpen(true);
  }

  function pick(emoji: string) {
    keepRecent(emoji);
    setOpen(false);
    onPick(emoji);
  }

  const shown = data ? emojiShown(data, tab, query, recent) : [];
  return (
    <div className="emoji-picker" ref={root}>
      <button
        type="button"
        className="icon-button"
        aria-label={t("chat.emoji.open")}
        title={t("chat.emoji.open")}
        aria-expanded={open}
        aria-haspopup="dialog"
        disabled={disabled}
        onClick={toggle}
      >
        <Icon name="emoji" />
      </button>
      {open && (
        <div className="emoji-panel" role="dialog" aria-label={t("chat.emoji.title")}>
          <input
            type="search"
            className="emoji-search"
            aria-label={t("chat.emoji.search")}
            placeholder={t("chat.emoji.search")}
            value={query}
            // biome-ignore lint/a11y/noAutofocus: the panel opens to find an emoji; typing goes to its search
            autoFocus
            onChange={(e) => setQuery(e.target.value)}
          />
          {!query.trim() && (
            <div className="emoji-tabs" role="tablist" aria-label={t("chat.emoji.categories")}>
              {(["recent", ...(data?.EMOJI_CATEGORIES ?? [])] as Tab[])
                .filter((c) => c !== "recent" || recent.length > 0)
                .map((c) => (
                  <button
                    key={c}
                    type="button"
                    role="tab"
                    aria-selected={tab === c}
                    aria-label={t(`chat.emoji.category.${c}`)}
                    title={t(`chat.emoji.category.${c}`)}
                    onClick={() => setTab(c)}
                  >
                    {TAB_ICONS[c]}
                  </button>
                ))}
            </div>
          )}
          <div className="emoji-grid">
            {shown.map((emoji) => (
              <button key={emoji} type="button" className="emoji" onClick={() => pick(emoji)}>
                {emoji}
              </button>
            ))}
            {data && query.trim() && shown.length === 0 && <p className="emoji-none">{t("chat.emoji.none")}</p>}
          </div>
        </div>
      )}
    </div>
  );
}

/** The emoji of the panel: the search's matches while there is a query, else the tab's. */
function emojiShown(data: EmojiData, tab: Tab, query: string, recent: string[]): string[] {
  if (query.trim()) return data.findEmoji(query).map((e: EmojiEntry) => e.emoji);
  if (tab === "recent") return recent;
  return data.EMOJI.filter((e) => e.category === tab).map((e) => e.emoji);
}
