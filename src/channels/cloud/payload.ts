import { sameBytes } from "../../shared/constant-time";

/** A message as the Cloud API's webhooks carry it (only the fields read here). */
export interface CloudMessage {
  from: string;
  id: string;
  timestamp: string;
  type: string;
  context?: { id?: string };
  text?: { body?: string };
  image?: CloudMediaRef;
  audio?: CloudMediaRef & { voice?: boolean };
  video?: CloudMediaRef;
  document?: CloudMediaRef;
  sticker?: CloudMediaRef;
  location?: { latitude?: number; longitude?: number; name?: string; address?: string };
  contacts?: CloudContactCard[];
  reaction?: { message_id?: string; emoji?: string };
  interactive?: {
    type?: string;
    button_reply?: { id?: string; title?: string };
    list_reply?: { id?: string; title?: string; description?: string };
  };
  button?: { payload?: string; text?: string };
}

export interface CloudMediaRef {
  id: string;
  mime_type?: string;
  caption?: string;
  filename?: string;
}

export interface CloudContactCard {
  name?: { formatted_name?: string };
  phones?: { phone?: string; wa_id?: string; type?: string }[];
}

/** A delivery status of a message this connection sent. */
export interface CloudStatus {
  id: string;
  status: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: { code?: number; title?: string; message?: string }[];
}

/** One journaled webhook event: a message with its sender's profile name, or a status. */
export type CloudEvent =
  | { kind: "cloud.message"; message: CloudMessage; pushName?: string }
  | { kind: "cloud.status"; status: CloudStatus };

interface WebhookBody {
  object?: string;
  entry?: {
    changes?: {
      field?: string;
      value?: {
        metadata?: { phone_number_id?: string };
        contacts?: { wa_id?: string; profile?: { name?: string } }[];
        messages?: CloudMessage[];
        statuses?: CloudStatus[];
      };
    }[];
  }[];
}

/** Whether `signature` (X-Hub-Signature-256: `sha256=<hex>`) is the HMAC-SHA256 of the raw body with the app secret. */
export function validSignature(rawBody: Uint8Array, signature: string | null, appSecret: string): boolean {
  if (!appSecret || !signature?.startsWith("sha256=")) return false;
  const given = Buffer.from(signature.slice("sha256=".length), "hex");
  return sameBytes(given, new Bun.CryptoHasher("sha256", appSecret).update(rawBody).digest());
}

/** Compares a presented secret with the stored one in constant time. */
export function sameSecret(given: string, stored: string): boolean {
  return sameBytes(given, stored);
}

/** The lane of an event: the customer's chat. */
export function chatOf(event: CloudEvent): string {
  return event.kind === "cloud.message" ? event.message.from : (event.status.recipient_id ?? "#status");
}

/**
 * The events of a webhook body meant for this phone number, in the order they came; throws on a body that is
 * not a WhatsApp Business Account notification.
 */
export function eventsOf(body: unknown, phoneNumberId: string): CloudEvent[] {
  const b = body as WebhookBody;
  if (!b || typeof b !== "object" || !Array.isArray(b.entry)) throw new Error("not a Cloud API notification");
  const events: CloudEvent[] = [];
  for (const entry of b.entry)
    for (const change of entry.changes ?? []) {
      const value = change.value;
      if (change.field !== "messages" || !value) continue;
      if (value.metadata?.phone_number_id && value.metadata.phone_number_id !== phoneNumberId) continue;
      for (const message of value.messages ?? []) {
        if (!message?.id || !message.from) continue;
        const pushName = value.contacts?.find((c) => c.wa_id === message.from)?.profile?.name;
        events.push({ kind: "cloud.message", message, ...(pushName ? { pushName } : {}) });
      }
      for (const status of value.statuses ?? []) if (status?.id) events.push({ kind: "cloud.status", status });
    }
  return events;
}
