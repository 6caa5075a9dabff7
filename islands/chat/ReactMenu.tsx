import type { TFunction } from "i18next";
import type { Message } from "../../src/shared/contracts";
import { Icon } from "../lib/icons";
import { MenuButton } from "../lib/menu-button";

/** The reactions offered at a touch, as WhatsApp's own quick row. */
const QUICK = ["👍", "❤️", "😂", "😮", "😢", "🙏"];

/** Reacting to a customer's message: the quick emoji, and taking back the reaction already given. */
export function ReactMenu({
  m,
  t,
  onReact,
}: {
  m: Message;
  t: TFunction;
  onReact: (m: Message, emoji: string) => void;
}) {
  return (
    <MenuButton
      className="react-menu"
      buttonClassName="react-button"
      label={t("chat.react.open")}
      haspopup="menu"
      button={<Icon name="emoji" size={16} />}
      menuRole="menu"
      menuClassName="react-options"
      menu={(close) => <QuickReactions m={m} t={t} onPick={(emoji) => (close(), onReact(m, emoji))} />}
    />
  );
}

/** The quick emoji as menu items, and taking back the reaction already given (`""`); also in a touch menu. */
export function QuickReactions({ m, t, onPick }: { m: Message; t: TFunction; onPick: (emoji: string) => void }) {
  const mine = m.reactions?.find((r) => r.reactor === "me")?.emoji;
  return (
    <>
      {QUICK.map((emoji) => (
        <button
          key={emoji}
          type="button"
          role="menuitemradio"
          aria-checked={emoji === mine}
          aria-label={emoji}
          className="quick-reaction"
          onClick={() => onPick(emoji)}
        >
          {emoji}
        </button>
      ))}
      {mine && (
        <button type="button" role="menuitem" className="react-remove" onClick={() => onPick("")}>
          {t("chat.react.remove")}
        </button>
      )}
    </>
  );
}
