import type { MenuChoices } from "../types";

/** WhatsApp's limits for interactive messages (Cloud API reference, "Interactive object"). */
const MAX_BUTTONS = 3;
const MAX_ROWS = 10;
const MAX_BODY = 1024;
const MAX_BUTTON_TITLE = 20;
const MAX_ROW_TITLE = 24;
const MAX_ROW_DESCRIPTION = 72;
const MAX_LIST_BUTTON = 20;

/**
 * A menu as an interactive message: reply buttons for up to 3 options when buttons are asked for, else a list of
 * up to 10 rows; titles cut to WhatsApp's limits (a cut row title keeps the whole name as its description).
 * Undefined when the menu does not fit either (the numbered text goes instead).
 */
export function interactivePayload(menu: MenuChoices): object | undefined {
  const { options } = menu;
  const text = menu.text.trim();
  if (!text || text.length > MAX_BODY || options.length === 0) return undefined;
  if (menu.style === "button" && options.length <= MAX_BUTTONS)
    return {
      type: "button",
      body: { text },
      action: {
        buttons: options.map((o) => ({ type: "reply", reply: { id: o.id, title: cut(o.title, MAX_BUTTON_TITLE) } })),
      },
    };
  if (options.length > MAX_ROWS) return undefined;
  return {
    type: "list",
    body: { text },
    action: {
      button: cut(menu.button, MAX_LIST_BUTTON),
      sections: [
        {
          rows: options.map((o) => ({
            id: o.id,
            title: cut(o.title, MAX_ROW_TITLE),
            ...([...o.title.trim()].length > MAX_ROW_TITLE ? { description: cut(o.title, MAX_ROW_DESCRIPTION) } : {}),
          })),
        },
      ],
    },
  };
}

function cut(text: string, max: number): string {
  const chars = [...text.trim()];
  return chars.length <= max ? chars.join("") : `${chars.slice(0, max - 1).join("")}…`;
}
