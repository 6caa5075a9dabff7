import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { CONNECTION_LANGUAGES } from "../../shared/contracts/connections";
import { PROVIDERS } from "../../shared/contracts/providers";
import { createdAt, updatedAt, bool } from "./columns";

export const connections = sqliteTable("whatsapps", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull().unique(),
  provider: text("provider", { enum: PROVIDERS }).notNull().default("baileys"),
  number: text("number").notNull().default(""),
  status: text("status").notNull().default("OPENING"),
  /** Why the connection is DISCONNECTED, as its driver said (e.g. the Cloud API refusing the token); "" otherwise. */
  statusReason: text("status_reason").notNull().default(""),
  qrcode: text("qrcode").notNull().default(""),
  retries: integer("retries").notNull().default(0),
  isDefault: bool("is_default").notNull().default(false),
  isMultidevice: bool("is_multidevice").notNull().default(true),
  greetingMessage: text("greeting_message").notNull().default(""),
  farewellMessage: text("farewell_message").notNull().default(""),
  transferTicketMessage: text("transfer_ticket_message").notNull().default(""),
  outOfWorkMessage: text("out_of_work_message").notNull().default(""),
  /** After an agent resolves a ticket, the customer is asked to rate the service 1–5 with `csatMessage`. */
  csatEnabled: bool("csat_enabled").notNull().default(false),
  csatMessage: text("csat_message").notNull().default(""),
  /** The language of the connection's automatic texts (chatbot's fixed texts, missed calls, default messages). */
  language: text("language", { enum: CONNECTION_LANGUAGES }).notNull().default("pt"),
  wavoip: text("wavoip").notNull().default(""),
  defineWorkHours: bool("define_work_hours").notNull().default(false),
  startWorkHour: text("start_work_hour").notNull().default("08:00"),
  endWorkHour: text("end_work_hour").notNull().default("17:30"),
  startWorkHourWeekend: text("start_work_hour_weekend").notNull().default("08:00"),
  endWorkHourWeekend: text("end_work_hour_weekend").notNull().default("17:30"),
  monday: bool("monday").notNull().default(true),
  tuesday: bool("tuesday").notNull().default(true),
  wednesday: bool("wednesday").notNull().default(true),
  thursday: bool("thursday").notNull().default(true),
  friday: bool("friday").notNull().default(true),
  saturday: bool("saturday").notNull().default(false),
  sunday: bool("sunday").notNull().default(false),
  /** When the phone sends its chat history after pairing, the last `importHistoryDays` days become closed tickets. */
  importHistory: bool("import_history").notNull().default(false),
  importHistoryDays: integer("import_history_days").notNull().default(7),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * The WhatsApp Cloud API account of a `cloud` connection. The token and the app secret are secrets (admins only,
 * never in events); `verifyToken` is what Meta's webhook handshake must present.
 */
export const cloudAccounts = sqliteTable("whatsapp_cloud_accounts", {
  whatsappId: integer("whatsapp_id")
    .primaryKey()
    .references(() => connections.id, { onDelete: "cascade" }),
  phoneNumberId: text("phone_number_id").notNull().default(""),
  businessAccountId: text("business_account_id").notNull().default(""),
  accessToken: text("access_token").notNull().default(""),
  appSecret: text("app_secret").notNull().default(""),
  verifyToken: text("verify_token").notNull(),
  updatedAt: updatedAt(),
});

export type CloudAccountRow = typeof cloudAccounts.$inferSelect;

/** Phone book learnt from a connection (contacts.upsert), the source of the contacts import. */
export const connectionPhonebook = sqliteTable(
  "whatsapp_phonebook",
  {
    whatsappId: integer("whatsapp_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    jid: text("jid").notNull(),
    phone: text("phone"),
    lid: text("lid"),
    name: text("name"),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.jid] })],
);

export type ConnectionRow = typeof connections.$inferSelect;
