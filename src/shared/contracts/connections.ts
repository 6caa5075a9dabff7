import type { Wire } from "./wire";
import type { Provider } from "./providers";

/**
 * A connection as GET /whatsapp and the `whatsapp`/`whatsappSession` events carry it. `wavoip` (the call token)
 * and `qrcode` are left out for anyone who may not manage connections.
 */
export interface ConnectionDto {
  id: number;
  name: string;
  provider: Provider;
  number: string;
  status: string;
  /** Why it is DISCONNECTED, when its network said (e.g. the Cloud API refusing the token); "" otherwise. */
  statusReason: string;
  qrcode?: string;
  retries: number;
  isDefault: boolean;
  isMultidevice: boolean;
  greetingMessage: string;
  farewellMessage: string;
  transferTicketMessage: string;
  outOfWorkMessage: string;
  /** Ask the customer to rate the service 1–5 after an agent resolves a ticket. */
  csatEnabled: boolean;
  /** The survey's text (`{{name}}` and the other placeholders of automatic messages are filled in). */
  csatMessage: string;
  wavoip?: string;
  defineWorkHours: boolean;
  startWorkHour: string;
  endWorkHour: string;
  startWorkHourWeekend: string;
  endWorkHourWeekend: string;
  monday: boolean;
  tuesday: boolean;
  wednesday: boolean;
  thursday: boolean;
  friday: boolean;
  saturday: boolean;
  sunday: boolean;
  importHistory: boolean;
  importHistoryDays: number;
  /** The language of its automatic texts (the chatbot's fixed lines, missed calls, notices). */
  language: ConnectionLanguage;
  createdAt: Date;
  updatedAt: Date;
  queues: { id: number; name: string; color: string; greetingMessage: string }[];
  /** Cloud API connections: the Meta account's ids (see CloudAccountFields); the secrets only for admins over HTTP. */
  phoneNumberId?: string;
  businessAccountId?: string;
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
}

/** Where Meta's app must send a cloud connection's webhooks (under the server's public address). */
export const cloudWebhookPath = (connectionId: number) => `/api/webhooks/whatsapp-cloud/${connectionId}`;

/**
 * A Cloud API connection's account in Meta's app: the phone number's and the business account's ids, a system
 * user's access token, the app secret (webhook signatures), and the token Meta's webhook handshake presents
 * (generated when left out). Absent in a change: kept as it is.
 */
export interface CloudAccountFields {
  phoneNumberId?: string;
  businessAccountId?: string;
  accessToken?: string;
  appSecret?: string;
  verifyToken?: string;
}

/** A connection as an island receives it. */
export type Connection = Wire<ConnectionDto>;

/** POST /whatsapp: a new connection; what is left out takes its default. */
export interface NewConnection extends CloudAccountFields {
  name: string;
  provider?: Provider;
  isDefault?: boolean;
  isMultidevice?: boolean;
  greetingMessage?: string;
  farewellMessage?: string;
  transferTicketMessage?: string;
  outOfWorkMessage?: string;
  csatEnabled?: boolean;
  /** Left out on creation: the default survey in the language of the request. */
  csatMessage?: string;
  /** The voice-call token. */
  wavoip?: string;
  defineWorkHours?: boolean;
  startWorkHour?: string;
  endWorkHour?: string;
  startWorkHourWeekend?: string;
  endWorkHourWeekend?: string;
  monday?: boolean;
  tuesday?: boolean;
  wednesday?: boolean;
  thursday?: boolean;
  friday?: boolean;
  saturday?: boolean;
  sunday?: boolean;
  /** Import the chat history the phone sends at pairing: the last `importHistoryDays` days, as closed tickets. */
  importHistory?: boolean;
  importHistoryDays?: number;
  /** `pt` when left out. */
  language?: ConnectionLanguage;
  queueIds?: number[];
}

/** PUT /whatsapp/:id: the fields that change. */
export type ConnectionChanges = Partial<NewConnection>;

/** Languages a connection's automatic texts can be written in. */
export const CONNECTION_LANGUAGES = ["pt", "en", "es"] as const;
export type ConnectionLanguage = (typeof CONNECTION_LANGUAGES)[number];

/** Session states that need an admin's attention (the warning dot on the Connections drawer entry). */
export const WARNING_STATUSES: readonly string[] = ["qrcode", "PAIRING", "DISCONNECTED", "TIMEOUT", "OPENING"];
