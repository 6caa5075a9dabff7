import type { WebhookEndpointRow } from "../../db/tables";
import type { AppDeps } from "../../deps";
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
 * every node) forgets them; a read that was under way while one arrived is not kept, since it may predate the
 * change. They are also read again after ENDPOINTS_KEPT_MS: a node whose bus missed a notice (its LISTEN
 * connection dropped meanwhile) catches up within that time.
 */
export function endpointCache(deps: Pick<AppDeps, "db" | "events" | "clock">): SubscribedEndpoints {
  let kept: { rows: WebhookEndpointRow[]; events: string[][]; at: number } | undefined;
  let forgotten = 0;
  const forget = () => {
    kept = undefined;
    forgotten++;
  };
  deps.events.subscribeAll((event) => {
    if (event.name === "webhooks.changed") forget();
  });
  const subscribed = async (event: WebhookEvent) => {
    const now = deps.clock.now();
    let current = kept && now - kept.at < ENDPOINTS_KEPT_MS ? kept : undefined;
    if (!current) {
      const before = forgotten;
      const rows = await activeEndpoints(deps.db).all();
      current = { rows, events: rows.map((row) => JSON.parse(row.events) as string[]), at: now };
      if (forgotten === before) kept = current;
    }
    const { rows, events } = current;
    return rows.filter((_, i) => events[i]!.includes(event));
  };
  return Object.assign(subscribed, { forget });
}
