import type { MenuChoices } from "../../channels/types";
import { autoText } from "../../i18n/server";
import type { ConnectionLanguage } from "../../shared/contracts/connections";

/** How menus are shown (the `chatBotType` setting): numbered text, or choices to tap where the network has them. */
export type MenuStyle = "text" | MenuChoices["style"];

/** A bot message: its text and, for a menu in the `button`/`list` style, its options as choices to tap. */
export interface BotMessage {
  body: string;
  choices?: MenuChoices;
}

/** The back line of queue and chatbot submenus, in the connection's language. */
export function backLine(lang: ConnectionLanguage): string {
  return `*#* ${autoText(lang, "backToMenu")}`;
}

/**
 * A menu as text (the `text` chatbot type): the greeting, a blank line, `*n* - Name` per option, and for submenus a
 * blank line and the back line. `button`/`list` menus are sent as this same numbered text on linked devices:
 * WhatsApp no longer renders those message types for unofficial clients (the Cloud API gets choices, see menuMessage).
 */
export function renderMenu(
  greeting: string,
  options: readonly { name: string }[],
  withBack: boolean,
  lang: ConnectionLanguage = "pt",
): string {
  const lines = options.map((o, i) => `*${i + 1}* - ${o.name}`);
  const parts = [greeting.trim(), lines.join("\n")];
  if (withBack) parts.push(backLine(lang));
  return parts.filter((p) => p !== "").join("\n\n");
}

/**
 * A menu as the bot sends it: the numbered text (see renderMenu) and, unless the style is `text`, the options as
 * choices answering with their number, under the greeting (and the back line), as typing the number would.
 */
export function menuMessage(
  style: MenuStyle,
  greeting: string,
  options: readonly { name: string }[],
  withBack: boolean,
  lang: ConnectionLanguage,
): BotMessage {
  const body = renderMenu(greeting, options, withBack, lang);
  if (style === "text") return { body };
  const label = autoText(lang, "chooseOption");
  const text = [greeting.trim(), withBack ? backLine(lang) : ""].filter((p) => p !== "").join("\n\n");
  return {
    body,
    choices: {
      style,
      text: text || label,
      button: label,
      options: options.map((o, i) => ({ id: `${i + 1}`, title: o.name })),
    },
  };
}

/** A menu sent again after an answer that is none of its options: it says so first. */
export function invalidAnswerMenu(menu: BotMessage, lang: ConnectionLanguage): BotMessage {
  const say = (text: string) => `${autoText(lang, "invalidOption")}\n\n${text}`;
  return {
    body: say(menu.body),
    ...(menu.choices ? { choices: { ...menu.choices, text: say(menu.choices.text) } } : {}),
  };
}

/** A reply read as a 1-based option number, or null. */
export function optionNumber(text: string): number | null {
  const t = text.trim();
  return /^\d{1,3}$/.test(t) ? Number(t) : null;
}

/** `#` (and `0`) mean "back to the main menu" at every level. */
export function isBackKey(text: string): boolean {
  const t = text.trim();
  return t === "#" || t === "0";
}
