/**
 * Events an outbound webhook may subscribe to: a message received from a contact, a message sent from here
 * (stored to go out), a change of an outgoing message's delivery (ack or send state), a ticket's status change.
 */
export const WEBHOOK_EVENTS = ["message.received", "message.sent", "message.ack", "ticket.status"] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export function isWebhookEvent(value: string): value is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(value);
}
