import type { Wire } from "./wire";
/** The status of a ticket; each one is a list tab and a socket room. */
export const TICKET_STATUSES = ["open", "pending", "closed"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** A ticket's `lastMessage` when its last message is a voice note or other audio, in place of the file's name. */
export const VOICE_MESSAGE_MARK = "🎤";

/** The kinds of message a ticket list row previews, each shown with its own words and icon. */
export const TICKET_PREVIEW_KINDS = [
  "chat",
  "image",
  "video",
  "audio",
  "document",
  "vcard",
  "location",
  "sticker",
  "call_log",
] as const;
export type TicketPreviewKind = (typeof TICKET_PREVIEW_KINDS)[number];

/**
 * The last message a person wrote in the ticket (the customer, or an agent from the panel or the phone): automatic
 * messages (menus, greetings, farewells, surveys, out-of-hours notices), private notes and deleted messages are
 * skipped. `text` is the message, a caption, the shared contact's name or the place's name (maybe empty);
 * `detail` is a document's file name or a voice message's length in seconds; `ack` the delivery status of our own.
 */
export interface TicketPreview {
  kind: TicketPreviewKind;
  text: string;
  detail: string | null;
  fromMe: boolean;
  ack: number;
  messageId: number;
}

/** In search results: the newest message of the ticket that matched what was searched. */
export interface TicketSearchMatch {
  messageId: number;
  text: string;
}

/** A ticket as GET /tickets, GET /tickets/:id and the `ticket`/`appMessage` events carry it. */
export interface TicketDto {
  id: number;
  status: TicketStatus;
  contactId: number;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
  isGroup: boolean;
  isBot: boolean;
  unreadMessages: number;
  /**
   * The text of the last message a person wrote (automatic messages are skipped); for a voice note or other audio,
   * VOICE_MESSAGE_MARK.
   */
  lastMessage: string;
  /** What the list shows of the last message a person wrote (see TicketPreview); null before anyone wrote. */
  preview: TicketPreview | null;
  /** Only in GET /tickets with `searchParam`: the newest matching message, when a message matched. */
  searchMatch?: TicketSearchMatch | null;
  channel: string;
  /** Created closed by the history import to hold a chat's messages from before pairing. */
  fromHistory: boolean;
  /** Snoozed: out of the In service and Waiting lists until then (or until the customer writes). */
  snoozedUntil: Date | null;
  /** The customer's answer to the satisfaction survey, once given. */
  csat: TicketCsat | null;
  createdAt: Date;
  updatedAt: Date;
  /** `number` is null while WhatsApp shows the contact only by their LID; `extraInfo` only on GET /tickets/:id. */
  contact: {
    id: number;
    name: string;
    number: string | null;
    profilePicUrl: string;
    isGroup: boolean;
    extraInfo?: { id: number; name: string; value: string }[];
  } | null;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  /** `hasCall`: the connection has a voice-call token (the token itself is asked for at call time). */
  whatsapp: { id: number; name: string; hasCall: boolean } | null;
  tags: { id: number; name: string; color: string }[];
  /** The time of the customer's oldest message no agent has answered yet; null when nobody waits for a reply. */
  waitingSince: Date | null;
  sla: TicketSla;
}

/** The SLA target a ticket passed (the `slaBreach` event to admins). */
export type SlaTarget = "first_response" | "resolution";

/**
 * Where the ticket stands against its queue's SLA targets in the current episode (since its creation or its
 * last reopening). A due time is null when its target is off (0) or no longer running: the first response
 * from the customer's first message until an agent answers, the resolution from the episode's start until
 * the ticket is resolved. `breached`: a target was passed in this episode, `breachedTargets` which.
 */
export interface TicketSla {
  firstResponseDueAt: Date | null;
  resolutionDueAt: Date | null;
  breached: boolean;
  breachedTargets: SlaTarget[];
}

/** A rating 1–5 the customer gave after the ticket was resolved, with the comment they wrote next, if any. */
export interface TicketCsat {
  rating: number;
  comment: string | null;
  answeredAt: Date;
}

/** POST /tickets/:id/snooze: the ticket is out of the lists until `until` (an ISO instant in the future). */
export interface TicketSnooze {
  until: string;
}

/**
 * The ticket list counts up to this many tickets and stops: past it the badge reads "1000+". Counting every closed
 * ticket of a large inbox would cost more than the page itself.
 */
export const TICKET_COUNT_CAP = 1000;

/**
 * One page of GET /tickets; `count` is exact up to TICKET_COUNT_CAP and TICKET_COUNT_CAP above it. A search page
 * with more to come says where the next one starts (`next`, the query's `beforeUpdatedAt` and `beforeId`): a
 * broad search reads a bounded stretch of the list per page, so a page may hold fewer tickets than the page size,
 * even none, and still be followed by more.
 */
export interface TicketPageDto {
  tickets: TicketDto[];
  count: number;
  hasMore: boolean;
  next?: { beforeUpdatedAt: number; beforeId: number };
}

/** A ticket as an island receives it (dates as ISO strings). */
export type Ticket = Wire<TicketDto>;

/** One of a contact's tickets as the contact's side drawer lists it: the ticket and how many private notes it holds. */
export interface ContactTicketDto extends TicketDto {
  notes: number;
}

/** One page of GET /contacts/:id/tickets, most recently active first. */
export interface ContactTicketPageDto {
  tickets: ContactTicketDto[];
  count: number;
  hasMore: boolean;
}

/** GET /contacts/:id/tickets: the page wanted (20 a page). */
export interface ContactTicketQuery {
  pageNumber?: number;
}

/** POST /tickets: a ticket for a contact (pending and unassigned unless said otherwise). */
export interface NewTicket {
  contactId: number;
  userId?: number | null;
  status?: TicketStatus;
  queueId?: number | null;
}

/** PUT /tickets/:id: accepting, transferring, closing or reopening a ticket; `null` takes the user or queue away. */
export interface TicketChanges {
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number;
}

/** POST /tags/sync: the whole set of tags a ticket carries from now on. */
export interface TicketTags {
  ticketId: number;
  tags: { id: number }[];
}

/**
 * GET /tickets: the filters of the ticket list. In the query string numbers and booleans are spelled as text and
 * id lists as JSON arrays (`queueIds=[1,2]`); given `beforeUpdatedAt` (epoch ms) and `beforeId` together, the page
 * continues after that ticket.
 */
export interface TicketListQuery {
  status?: TicketStatus;
  searchParam?: string;
  pageNumber?: number;
  beforeUpdatedAt?: number;
  beforeId?: number;
  date?: string;
  updatedAt?: string;
  showAll?: boolean;
  withUnreadMessages?: boolean;
  /** Only the snoozed tickets (which every other list leaves out). */
  snoozed?: boolean;
  /** Only the unresolved tickets past their queue's first-response or resolution target. */
  slaBreached?: boolean;
  queueIds?: number[];
  tags?: number[];
}

/** The longest draft kept: a message's worth of text as the composer takes it. */
export const DRAFT_MAX_LENGTH = 4096;

/** A user's unsent text in a ticket's composer (GET/PUT /tickets/:id/draft, GET /tickets/drafts). */
export interface TicketDraftDto {
  ticketId: number;
  /** Empty when there is no draft. */
  body: string;
  updatedAt: Date | null;
}

/** PUT /tickets/:id/draft: the draft's text from now on; empty (or only spaces) deletes it. */
export interface TicketDraftChanges {
  body: string;
}
