import { useEffect, useRef, useState } from "react";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";

/** The emoji offered, the ones a support chat uses most: faces, hands, hearts, then a few objects and marks. */
export const EMOJI = [
  "😀",
  "😃",
  "😄",
  "😁",
  "😆",
  "😅",
  "😂",
  "🤣",
  "😊",
  "😇",
  "🙂",
  "🙃",
  "😉",
  "😌",
  "😍",
  "🥰",
  "😘",
  "😋",
  "😛",
  "😜",
  "🤪",
  "🤗",
  "🤔",
  "🤐",
  "😐",
  "😑",
  "😶",
  "😏",
  "😒",
  "🙄",
  "😬",
  "😔",
  "😪",
  "😴",
  "😷",
  "🤒",
  "😎",
  "🤓",
  "😕",
  "😟",
  "🙁",
  "😮",
  "😲",
  "😳",
  "🥺",
  "😢",
  "😭",
  "😱",
  "😤",
  "😡",
  "👍",
  "👎",
  "👌",
  "✌️",
  "🤞",
  "👋",
  "👏",
  "🙌",
  "🙏",
  "💪",
  "❤️",
  "🧡",
  "💛",
  "💚",
  "💙",
  "💜",
  "💔",
  "✨",
  "⭐",
  "🔥",
  "🎉",
  "🎁",
  "📦",
  "🚚",
  "💰",
  "📞",
  "📅",
  "⏰",
  "✅",
  "❌",
] as const;

/**
 * The smiley button of the composer and its grid of emoji: a click puts the emoji where the caret is (through
 * `onPick`) and closes the grid; Esc or a click outside closes it too.
 */
export function EmojiPicker({ disabled, onPick }: { disabled: boolean; onPick: (emoji: string) => void }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
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
  }, [open]);

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
        onClick={() => setOpen((o) => !o)}
      >
        <Icon name="emoji" />
      </button>
      {open && (
        <div className="emoji-grid" role="dialog" aria-label={t("chat.emoji.title")}>
          {EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              onClick={() => {
                setOpen(false);
                onPick(emoji);
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
