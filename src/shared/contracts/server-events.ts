import type { ConnectionDto } from "./connections";
import type { ContactDto } from "./contacts";
import type { MessageDto } from "./messages";
import type { ChatPresenceDto } from "./presence";
import type { ChatbotDto, QueueWithChatbotsDto } from "./queues";
import type { QuickAnswerDto } from "./quick-answers";
import type { ScheduleDto } from "./schedules";
import type { TagDto } from "./tags";
import type { TicketEventDto } from "./ticket-events";
import type { SlaTarget, TicketDto } from "./tickets";
import type { UserDto } from "./users";

type Saved<K extends string, T, A extends string = "create" | "update"> = { action: A } & { [P in K]: T };
type Deleted<K extends string> = { action: "delete" } & { [P in K]: number };

/** A global setting as the `settings` event carries it. */
export interface SettingDto {
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A connection's bulk-sending settings as the `settingsMessage` event carries them. */
export interface BulkSettingsDto {
  id: number;
  whatsappId: number;
  limit: number;
  minutes: number;
  seconds: number;
  contacts: boolean;
  photo: boolean;
  random: boolean;
  optOut: string;
  sendToday: number;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

/** One recipient of a bulk send as the `massMessage` event carries it. */
export interface BulkRecordDto {
  id: number;
  whatsappId: number | null;
  phone: string;
  message: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A number that asked a connection to stop bulk messages. */
export interface OptOutDto {
  id: number;
  whatsappId: number;
  number: string;
  createdAt: Date;
}

/** The session state of a connection (`whatsappSession`): the connection without its queues or call token. */
export type ConnectionSessionDto = Omit<ConnectionDto, "queues" | "wavoip">;

/** A simulated phone's conversation with a sandbox connection changed. */
export interface SandboxChange {
  whatsappId: number;
  peer: string;
}

/**
 * What each socket event carries, as the server builds it (an island reads `Wire<ServerEvents[E]>`). The server's
 * realtime listener and socket registry send only these shapes, and the islands' `on` hands listeners these types,
 * so a change of shape is a type error on both sides.
 */
export interface ServerEvents {
  user: Saved<"user", UserDto> | Deleted<"userId">;
  queue: Saved<"queue", QueueWithChatbotsDto, "update"> | Deleted<"queueId">;
  chatbot: Saved<"chatbot", ChatbotDto, "update"> | Deleted<"chatbotId">;
  schedule: Saved<"schedule", ScheduleDto> | Deleted<"scheduleId">;
  contact: Saved<"contact", ContactDto> | Deleted<"contactId">;
  quickAnswer: Saved<"quickAnswer", QuickAnswerDto> | Deleted<"quickAnswerId">;
  tag: Saved<"tag", TagDto> | Deleted<"tagId">;
  settings: Saved<"setting", SettingDto, "update">;
  settingsMessage: Saved<"setting", BulkSettingsDto, "update">;
  massMessage: Saved<"record", BulkRecordDto> | Deleted<"id">;
  optOut: Saved<"optOut", OptOutDto, "create" | "delete">;
  whatsapp: Saved<"whatsapp", ConnectionDto, "update"> | Deleted<"whatsappId">;
  whatsappSession: Saved<"session", ConnectionSessionDto, "update">;
  sandbox: SandboxChange;
  appMessage:
    | { action: "create"; message: MessageDto; ticket: TicketDto; contact: TicketDto["contact"] }
    | { action: "update"; message: MessageDto }
    | { action: "delete"; messageId: number; ticketId: number };
  ticket:
    | { action: "update"; ticket: TicketDto }
    | { action: "delete"; ticketId: number }
    | { action: "updateUnread"; ticketId: number }
    /** The ticks of the message the ticket's row previews. */
    | { action: "updateAck"; ticketId: number; messageId: number; ack: number };
  /** A change recorded in the history of the ticket whose chat is open (its room only). */
  ticketEvent: { action: "create"; event: TicketEventDto };
  /** A ticket passed its queue's SLA target (admins only). */
  slaBreach: { ticket: TicketDto; target: SlaTarget };
  /** The customer of the ticket whose chat is open is typing, recording, online… (its room only). */
  presence: ChatPresenceDto;
  /** A snoozed ticket of this user's came back to the lists (its user's room only). */
  ticketWoken: { ticket: TicketDto };
  /** The socket is signed in: whose it is and how many seconds its access token has left. */
  ready: { userId: number; expiresIn: number };
  /** The socket's token was renewed: how many seconds the new one has left. */
  token: { expiresIn: number };
  /** Answers a ping once every message before it was handled. */
  pong: null;
}
