import type { TemplateMessage } from "./templates";
import type { Wire } from "./wire";

/** A scheduled message as GET /schedules and the `schedule` event carry it, with its contact and author. */
export interface ScheduleDto {
  id: number;
  body: string;
  contactId: number;
  ticketId: number | null;
  userId: number | null;
  sendAt: Date;
  sentAt: Date | null;
  status: "PENDENTE" | "AGENDADA" | "ENVIADA" | "ERRO";
  attempts: number;
  /** The error code of the last failed attempt. */
  lastError: string | null;
  messageId: number | null;
  /** Sent instead of the body when the customer's 24-hour window is closed (Cloud API connections). */
  template: TemplateMessage | null;
  createdAt: Date;
  updatedAt: Date;
  contact: { id: number; name: string; number: string | null } | null;
  user: { id: number; name: string } | null;
}

/** A schedule as an island receives it. */
export type Schedule = Wire<ScheduleDto>;

/** PUT /schedules/:id: what may change on a schedule not sent yet. */
export interface ScheduleChanges {
  body?: string;
  contactId?: number;
  /** When to send: an ISO instant (the form sends one), or `YYYY-MM-DDTHH:mm` in the server's time zone. */
  sendAt?: string;
  /** Sent instead of the body to a customer outside the Cloud API's 24-hour window; null removes it. */
  template?: TemplateMessage | null;
}

/** POST /schedules; `ticketId` keeps the message in the chat it was written from. */
export interface NewSchedule extends Required<Omit<ScheduleChanges, "template">> {
  template?: TemplateMessage | null;
  userId?: number | null;
  ticketId?: number | null;
}
