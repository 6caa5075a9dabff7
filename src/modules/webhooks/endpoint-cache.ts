import type { WebhookEndpointRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { keptReads } from "../../events/kept-reads";
import type { WebhookEvent } from "../../shared/webhook-events";
import { activeEndpoints } from "./endpoints";

/** How long a node keeps the endpoints it read at most, in case its bus missed a change (see endpointCache). */
export const ENDPOINTS_KEPT_MS = 10_000;

/** The active endpoints subscribed to an event; `forget` drops what is kept so the next call reads them again. */
export interface SubscribedEndpoints {
  (event: WebhookEvent): Promise<WebhookEndpointRow[]>;
  forget(): void;
}

/**
 * The active endpoints, read once: every message and ticket event asks which endpoints want it, and with none
 * configured that question was most of what webhooks cost. A change of an endpoint (`webhooks.changed`, heard from
 * every node) forgets them (see keptReads). They are also read again after ENDPOINTS_KEPT_MS: a node whose bus
 * missed a notice (its LISTEN connection dropped meanwhile) catches up within that time.
 */
export function endpointCache(deps: Pick<AppDeps, "db" | "events" | "clock">): SubscribedEndpoints {
  const active = keptReads(
    deps.events,
    async (_all: "active") => {
      const rows = await activeEndpoints(deps.db).all();
      return rows.map((row) => ({ row, events: JSON.parse(row.events) as string[] }));
    },
    (event) => (event.name === "webhooks.changed" ? "all" : undefined),
    { maxAgeMs: ENDPOINTS_KEPT_MS, now: () => deps.clock.now() },
  );
  const subscribed = async (event: WebhookEvent) =>
    (await active("active")).filter((e) => e.events.includes(event)).map((e) => e.row);
  return Object.assign(subscribed, { forget: active.forget });
}
