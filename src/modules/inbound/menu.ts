/** The back line of queue and chatbot submenus. */
export const BACK_LINE = "*#* Voltar para o menu principal";

/**
 * A menu as text (the `text` chatbot type): the greeting, a blank line, `*n* - Name` per option, and for submenus a
 * blank line and the back line. `button`/`list` menus are sent as this same numbered text: WhatsApp no longer
 * renders those message types for unofficial clients.
 */
export function renderMenu(greeting: string, options: readonly { name: string }[], withBack: boolean): string {
  const lines = options.map((o, i) => `*${i + 1}* - ${o.name}`);
  const parts = [greeting.trim(), lines.join("\n")];
  if (withBack) parts.push(BACK_LINE);
  return parts.filter((p) => p !== "").join("\n\n");
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
