/** A ticket as GET /api/tickets and the `ticket`/`appMessage` events carry it. */
export interface Ticket {
  id: number;
  status: "open" | "pending" | "closed";
  userId: number | null;
  queueId: number | null;
  isGroup?: boolean;
  unreadMessages: number;
  lastMessage: string | null;
  updatedAt: string;
  contact: { id: number; name: string; number: string | null; profilePicUrl: string | null } | null;
  user: { id: number; name: string } | null;
  queue: { id: number; name: string; color: string } | null;
  /** `hasCall`: the connection has a voice-call token (GET /tickets/:id/call gives the dialer URL). */
  whatsapp: { id: number; name: string; hasCall?: boolean } | null;
  tags: { id: number; name: string; color: string }[];
}

/** A message as GET /api/messages/:ticketId and `appMessage` carry it. */
export interface Message {
  id: number;
  body: string;
  fromMe: boolean;
  ack: number;
  mediaType: string;
  mediaUrl: string | null;
  fileName?: string | null;
  /** Inbound media without its file yet (`downloading`) or for good (`unavailable`). */
  mediaState?: "downloading" | "unavailable" | null;
  isDeleted: boolean;
  isEdited?: boolean;
  /** Own messages sent from here: `queued` until the connection is up, `failed` until retried. */
  sendState?: "queued" | "sending" | "sent" | "failed" | null;
  /** The error code of a failed send. */
  sendError?: string | null;
  createdAt: string;
  ticketId: number;
  reactions?: { emoji: string; reactor: string }[];
  quotedMsg?: {
    id: number;
    body: string;
    fromMe: boolean;
    mediaType?: string;
    contact?: { name: string } | null;
  } | null;
  contact?: { id: number; name: string } | null;
}

export interface QueueOption {
  id: number;
  name: string;
  color: string;
}
