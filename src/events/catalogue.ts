import type { SandboxChange } from "../channels/sandbox/controls";
import type {
  ChatbotRow,
  ContactRow,
  MassMessageRow,
  optOuts,
  SettingRow,
  settingsMessage,
  TicketRow,
  ConnectionRow,
} from "../db/tables";
import type { ConnectionDto } from "../shared/contracts/connections";
import type { MessageDto } from "../shared/contracts/messages";
import type { AgentPresence, ChatPresence } from "../shared/contracts/presence";
import type { ChatbotDto, QueueWithChatbotsDto } from "../shared/contracts/queues";
import type { QuickAnswerDto } from "../shared/contracts/quick-answers";
import type { ScheduleDto } from "../shared/contracts/schedules";
import type { TagDto } from "../shared/contracts/tags";
import type { TicketEventDto } from "../shared/contracts/ticket-events";
import type { SlaTarget, TicketDto } from "../shared/contracts/tickets";
import type { UserDto } from "../shared/contracts/users";

type OptOutRow = typeof optOuts.$inferSelect;
type SettingsMessageRow = typeof settingsMessage.$inferSelect;

/** Where a ticket stood: enough to know which lists showed it. */
export type TicketPlace = Pick<TicketRow, "id" | "status" | "queueId"> & { userId?: number | null };

/**
 * Every domain event and what it carries. Services emit them after their write is committed; listeners (the
 * realtime fan-out, webhooks, metrics) decide what each means to them. Payloads are the DTOs the API answers with.
 */
export interface DomainEvents {
  "user.created": { user: UserDto };
  "user.updated": { user: UserDto };
  /** A user's sessions changed (logout, revocation): only that user's own sockets need to know. */
  "user.sessionsChanged": { user: UserDto };
  "user.deleted": { userId: number };
  /** A user's availability changed, by their choice or by their sockets (`before` is what it was). */
  "user.availabilityChanged": { user: UserDto; before: UserDto["availability"] };
  "queue.updated": { queue: QueueWithChatbotsDto };
  "queue.deleted": { queueId: number };
  "chatbot.updated": { chatbot: ChatbotDto & { mainChatbot: ChatbotRow | null } };
  "chatbot.deleted": { chatbotId: number };
  "schedule.created": { schedule: ScheduleDto };
  "schedule.updated": { schedule: ScheduleDto };
  "schedule.deleted": { scheduleId: number };
  "quickAnswer.created": { quickAnswer: QuickAnswerDto };
  "quickAnswer.updated": { quickAnswer: QuickAnswerDto };
  "quickAnswer.deleted": { quickAnswerId: number };
  "tag.created": { tag: TagDto };
  "tag.updated": { tag: TagDto };
  "tag.deleted": { tagId: number };
  "settings.updated": { setting: SettingRow };
  "bulkSettings.updated": { setting: SettingsMessageRow };
  "bulk.created": { record: MassMessageRow };
  "bulk.updated": { record: MassMessageRow };
  "bulk.deleted": { id: number };
  "optOut.created": { optOut: OptOutRow };
  "optOut.deleted": { optOut: OptOutRow };
  "connection.updated": { connection: ConnectionDto };
  "connection.deleted": { connectionId: number };
  /** The session state of a connection changed (status, QR code, retries…); never carries its secrets. */
  "connection.status": { session: Omit<ConnectionRow, "wavoip"> };
  /** A command waits for the node that runs the connection (nodes sharing the database; browsers never hear it). */
  "connection.commanded": { connectionId: number };
  /** A Cloud API notification was journaled (on any node): the node that runs the connection handles it. */
  "connection.inbound": { connectionId: number };
  /** An outbound webhook endpoint was created, changed or removed (nodes sharing the database; browsers never hear it). */
  "webhooks.changed": { endpointId: number };
  "contact.created": { contact: ContactRow };
  "contact.updated": { contact: ContactRow };
  "contact.deleted": { contactId: number };
  "message.created": { message: MessageDto; ticket: TicketDto };
  "message.updated": { message: MessageDto };
  /** An unsent message was withdrawn before it left. */
  "message.deleted": { messageId: number; ticket: TicketPlace };
  /** `before` is where the ticket stood when its status, user or queue may have changed. */
  "ticket.updated": { ticket: TicketDto; before?: TicketPlace };
  "ticket.deleted": { ticket: TicketPlace };
  "ticket.read": { ticket: TicketPlace };
  /** The delivery status of the message a ticket's list row previews rose (the row's ticks). */
  "ticket.previewAck": { ticket: TicketPlace; messageId: number; ack: number };
  /** The ticket passed its queue's SLA `target` (admins are told). */
  "ticket.slaBreached": { ticket: TicketDto; target: SlaTarget };
  /** A change was recorded in the ticket's history. */
  "ticket.event": { event: TicketEventDto };
  /** A snoozed ticket came back (its time came, or the customer wrote): its agent is told. */
  "ticket.woken": { ticket: TicketDto; userId: number };
  "sandbox.changed": { change: SandboxChange };
  /** The customer of an active ticket is typing, recording, online… (never stored; its open chats show it). */
  "chat.presence": { ticket: TicketPlace; contactId: number; state: ChatPresence };
  /** The agent's presence for the node that runs the connection to tell the network (browsers never hear it). */
  "chat.ownPresence": { connectionId: number; chatId: string; isGroup: boolean; state: AgentPresence };
}

export type DomainEventName = keyof DomainEvents;

/** One event as listeners receive it: its name plus its payload. */
export type DomainEvent = { [N in DomainEventName]: { name: N; payload: DomainEvents[N] } }[DomainEventName];
