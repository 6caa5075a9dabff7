/** How a webhook call of the Cloud API was taken (see `CloudWebhooks.receive`). */
export type WebhookVerdict = "accepted" | "unknown" | "forbidden" | "malformed";

/** Where the Cloud API's webhooks come in (implemented by the cloud driver). */
export interface CloudWebhooks {
  /** Meta's subscription handshake: the challenge to echo when the verify token is the connection's, else undefined. */
  verify(
    connectionId: number,
    mode: string | undefined,
    token: string | undefined,
    challenge: string | undefined,
  ): Promise<string | undefined>;
  /**
   * A notification: `forbidden` unless `signature` is the raw body's HMAC with the connection's app secret, `unknown`
   * for no cloud connection of that id, `malformed` for a body that is not a notification. Accepted events are
   * journaled before this resolves, then handled like every driver's (per chat, in order, idempotent).
   */
  receive(connectionId: number, rawBody: Uint8Array, signature: string | null): Promise<WebhookVerdict>;
  /** Handles what is journaled for the connection and not handled yet, when it runs here (another node took it in). */
  resume(connectionId: number): Promise<void>;
  /** Resolves once the events received so far on the connection are handled (tests, stops). */
  settled(connectionId: number): Promise<void>;
}
