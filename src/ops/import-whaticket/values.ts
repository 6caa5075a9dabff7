/** Reading whaticket values, which differ by engine (booleans as 0/1 on MySQL) and by fork (missing columns). */

export function text(value: unknown): string {
  return value == null ? "" : String(value);
}

export function optionalText(value: unknown): string | null {
  return value == null || value === "" ? null : String(value);
}

export function flag(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "t" || value === "true";
}

export function count(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}

export function date(value: unknown, fallback: Date): Date {
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (typeof value === "string" || typeof value === "number") {
    const parsed = new Date(value);
    if (!Number.isNaN(parsed.getTime())) return parsed;
  }
  return fallback;
}

export function optionalDate(value: unknown): Date | null {
  return value == null ? null : date(value, new Date(Number.NaN));
}

/** The id a source row is known by, as text (messages have WhatsApp's string ids, the rest integers). */
export function sourceId(value: unknown): string {
  return String(value);
}

export function ticketStatus(value: unknown): "open" | "pending" | "closed" {
  return value === "open" || value === "pending" ? value : "closed";
}

export function profile(value: unknown): "admin" | "user" {
  return value === "admin" ? "admin" : "user";
}

/**
 * The family names their message types after WhatsApp's protobuf fields (and whaticket-community after
 * whatsapp-web.js's); Zapdesk keeps one short name per kind.
 */
const MEDIA_TYPES: Record<string, string> = {
  conversation: "chat",
  extendedTextMessage: "chat",
  chat: "chat",
  imageMessage: "image",
  image: "image",
  audioMessage: "audio",
  audio: "audio",
  ptt: "audio",
  videoMessage: "video",
  video: "video",
  documentMessage: "document",
  documentWithCaptionMessage: "document",
  document: "document",
  application: "document",
  stickerMessage: "sticker",
  sticker: "sticker",
  contactMessage: "vcard",
  contactsArrayMessage: "vcard",
  vcard: "vcard",
  multi_vcard: "vcard",
  locationMessage: "location",
  liveLocationMessage: "location",
  location: "location",
};

export function mediaType(value: unknown): string {
  return MEDIA_TYPES[text(value)] ?? "chat";
}

const SCHEDULE_STATUSES = ["PENDENTE", "AGENDADA", "ENVIADA", "ERRO"] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/**
 * A schedule keeps its status, except one still waiting whose time has passed: it becomes ERRO rather than going
 * out to the customer, late, the moment the inbox starts; editing it puts it back to PENDENTE.
 */
export function scheduleStatus(value: unknown, sendAt: Date, now: Date): ScheduleStatus {
  const status = SCHEDULE_STATUSES.find((s) => s === text(value).toUpperCase()) ?? "ERRO";
  if ((status === "PENDENTE" || status === "AGENDADA") && sendAt.getTime() <= now.getTime()) return "ERRO";
  return status;
}
