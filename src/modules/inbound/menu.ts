import { autoText } from "../../i18n/server";
import type { ConnectionLanguage } from "../../shared/contracts/connections";

/** The back line of queue and chatbot submenus, in the connection's language. */
export function backLine(lang: ConnectionLanguage): string {
  return `*#* ${autoText(lang, "backToMenu")}`;
}

/**
 * A menu as text (the `text` chatbot type): the greeting, a blank line, `*n* - Name` per option, and for submenus a
 * blank line and the back line. `button`/`list` menus are sent as this same numbered text: WhatsApp no longer
 * renders those message types for unofficial clients.
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

/** A menu sent again after an answer that is none of its options: it says so first. */
export function invalidAnswerMenu(menu: string, lang: ConnectionLanguage): string {
  return `${autoText(lang, "invalidOption")}\n\n${menu}`;
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
