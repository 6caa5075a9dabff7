/** Left-to-right mark prefixed to automatic messages so their echo is recognised as ours (never re-processed). */
export const LRM = "\u200e";

export interface PlaceholderValues {
  contactName: string;
  ticketId?: number;
  queueName?: string;
  userName?: string;
}

interface LocalTime {
  year: string;
  month: string;
  day: string;
  hour: number;
  minute: string;
  second: string;
}

/** Wall-clock parts of `now` in `timeZone`. */
function localTime(now: Date, timeZone: string): LocalTime {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  }).formatToParts(now);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "00";
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: Number(get("hour")) % 24,
    minute: get("minute"),
    second: get("second"),
  };
}

/** `{{gretting}}` (sic): Boa madrugada 0–5, Bom dia 6–11, Boa tarde 12–17, Boa noite 18–23. */
function greeting(hour: number): string {
  if (hour < 6) return "Boa madrugada";
  if (hour < 12) return "Bom dia";
  if (hour < 18) return "Boa tarde";
  return "Boa noite";
}

/**
 * Renders the message placeholders in the configured time zone. Values are inserted
 * verbatim (no HTML escaping); unknown `{{…}}` tags are left as they are.
 */
export function renderPlaceholders(template: string, values: PlaceholderValues, now: Date, timeZone: string): string {
  const t = localTime(now, timeZone);
  const hello = greeting(t.hour);
  const vars: Record<string, string> = {
    name: values.contactName,
    gretting: hello,
    ms: hello,
    protocol: `${t.year}${t.month}${t.day}${t.hour}${t.minute}${t.second}`,
    hora: `${t.hour}:${t.minute}:${t.second}`,
    fila: values.queueName ?? "",
    atendente: values.userName ?? "",
  };
  return template
    .replace(/\{\{\{?\s*([a-zA-Z]+)\s*\}?\}\}/g, (whole, key: string) => (key in vars ? vars[key]! : whole))
    .replace(/\{TICKET\}/g, values.ticketId != null ? String(values.ticketId) : "")
    .replace(/\{CLIENTE\}/g, values.contactName);
}
