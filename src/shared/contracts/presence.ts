/** What a person on the other side of a chat is doing, as WhatsApp reports it. */
export const CHAT_PRESENCES = ["composing", "recording", "paused", "available", "unavailable"] as const;

export type ChatPresence = (typeof CHAT_PRESENCES)[number];

/**
 * POST /tickets/:id/presence: what the agent does in the chat. `composing`/`paused` are shown to the customer
 * (typing or not); `viewing` says the chat is open, so the customer's own presence is asked for.
 */
export const AGENT_PRESENCES = ["viewing", "composing", "paused"] as const;

export type AgentPresence = (typeof AGENT_PRESENCES)[number];

/** At most one `composing` per chat in this span: WhatsApp keeps showing it for about 25 s by itself. */
export const COMPOSING_EVERY_MS = 4000;

/** The `presence` socket event: the customer of the ticket whose chat is open is typing, recording, online… */
export interface ChatPresenceDto {
  ticketId: number;
  contactId: number;
  state: ChatPresence;
}

/** POST /sandbox/:whatsappId/presence: the simulated phone `from` types, records, comes online… */
export interface SandboxPresence {
  from: string;
  state: ChatPresence;
}
