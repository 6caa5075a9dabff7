import type { AppDeps } from "../../deps";
import { DELIVER_JOB, type DeliverPayload, pruneDeliveries, requeuePendingDeliveries } from "./deliveries";
import { deliverAttempt } from "./deliver";
import { observeForWebhooks } from "./observe";

const PRUNE_JOB = "webhook.prune";

/** Drops old entries of the delivery log once a day (server.ts; tests run the handler directly if at all). */
export async function scheduleWebhookPrune(deps: AppDeps) {
  await deps.jobs.every(PRUNE_JOB, 24 * 3600 * 1000);
}

/** Registers the delivery jobs on the runner and listens on the event bus for the events webhooks report. */
export async function startWebhooks(deps: AppDeps) {
  deps.jobs.handle(DELIVER_JOB, (payload: DeliverPayload) => deliverAttempt(deps, payload));
  deps.jobs.handle(PRUNE_JOB, async () => await pruneDeliveries(deps.db, deps.clock.now()));
  deps.events.subscribe(observeForWebhooks(deps));
  await requeuePendingDeliveries(deps);
}
