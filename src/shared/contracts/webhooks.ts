import type { WebhookEvent } from "../webhook-events";

/** A webhook endpoint as GET /webhooks lists it, with the secret its deliveries are signed with. */
export interface WebhookEndpointDto {
  id: number;
  url: string;
  events: WebhookEvent[];
  secret: string;
  active: boolean;
  createdAt: Date;
}

/** POST /webhooks: where to deliver which events (names outside WEBHOOK_EVENTS are refused). */
export interface NewWebhook {
  url: string;
  events: string[];
  active?: boolean;
}

/** PUT /webhooks/:id: the fields that change. */
export type WebhookChanges = Partial<NewWebhook>;
