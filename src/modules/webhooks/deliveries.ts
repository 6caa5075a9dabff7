import { atomically, type Db } from "../../db/client";
import { and, asc, desc, eq, inArray, lt } from "drizzle-orm";
import { type WebhookEndpointRow, webhookAttempts, webhookDeliveries } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { WebhookEvent } from "../../shared/webhook-events";
import type { SubscribedEndpoints } from "./endpoint-cache";
import type { WebhookModel } from "./model";

export const DELIVER_JOB = "webhook.deliver";

export interface DeliverPayload {
  deliveryId: number;
  attempt: number;
}

/** The job of one attempt; its key makes enqueueing the same attempt twice harmless. */
export async function enqueueAttempt(deps: Pick<AppDeps, "jobs">, deliveryId: number, attempt: number, runAt?: number) {
  await deps.jobs.enqueue(DELIVER_JOB, { deliveryId, attempt } satisfies DeliverPayload, {
    key: `webhook:${deliveryId}:${attempt}`,
    runAt,
    maxAttempts: 3,
  });
}

/**
 * Records `event` for every active endpoint subscribed to it and queues the first attempt of each. The body is
 * fixed here, so every attempt sends (and signs) the same bytes; `dedupeKey` makes a repeated report one delivery.
 * `data` is only built when some endpoint wants the event.
 */
export async function recordEvent(
  deps: AppDeps,
  subscribed: SubscribedEndpoints,
  event: WebhookEvent,
  dedupeKey: string,
  data: () => unknown | Promise<unknown>,
) {
  const endpoints = await subscribed(event);
  if (!endpoints.length) return;
  const now = deps.clock.now();
  const body = JSON.stringify({ event, occurredAt: new Date(now).toISOString(), data: await data() });
  const record = (to: WebhookEndpointRow[]) => insertDeliveries(deps, to, { event, dedupeKey, body, now });
  const created = await record(endpoints).catch(async (error) => {
    // An endpoint removed on another node an instant ago may still be among those kept: read them again, once.
    subscribed.forget();
    const current = await subscribed(event);
    if (current.length === endpoints.length && current.every((e, i) => e.id === endpoints[i]!.id)) throw error;
    return await record(current);
  });
  for (const { id } of created.sort((a, b) => a.id - b.id)) await enqueueAttempt(deps, id, 1);
}

async function insertDeliveries(
  deps: AppDeps,
  endpoints: WebhookEndpointRow[],
  delivery: { event: WebhookEvent; dedupeKey: string; body: string; now: number },
) {
  if (!endpoints.length) return [];
  const { event, dedupeKey, body, now } = delivery;
  return await atomically(
    deps.db,
    async (tx) =>
      await tx
        .insert(webhookDeliveries)
        .values(
          endpoints.map((endpoint) => ({
            endpointId: endpoint.id,
            event,
            dedupeKey,
            body,
            createdAt: new Date(now),
            updatedAt: new Date(now),
          })),
        )
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id }),
  );
}

/**
 * Queues the next attempt of every delivery still pending (at start): a stop between recording a delivery and
 * queueing its job would otherwise leave it waiting forever. Attempts already queued are left as they are.
 */
export async function requeuePendingDeliveries(deps: Pick<AppDeps, "db" | "jobs">) {
  const pending = await deps.db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
    })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.status, "pending"));
  for (const d of pending) await enqueueAttempt(deps, d.id, d.attempts + 1, d.nextAttemptAt ?? undefined);
}

export const LOG_PAGE = 20;

/** The delivery log, newest first, 20 a page, each delivery with all of its attempts. */
export async function listDeliveries(db: Db, opts: WebhookModel.Deliveries) {
  const page = opts.pageNumber ?? 1;
  const where = opts.endpointId != null ? eq(webhookDeliveries.endpointId, opts.endpointId) : undefined;
  const rows = await db
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      event: webhookDeliveries.event,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attempts,
      lastStatusCode: webhookDeliveries.lastStatusCode,
      lastError: webhookDeliveries.lastError,
      nextAttemptAt: webhookDeliveries.nextAttemptAt,
      createdAt: webhookDeliveries.createdAt,
      body: webhookDeliveries.body,
    })
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.id))
    .limit(LOG_PAGE + 1)
    .offset((page - 1) * LOG_PAGE);
  const shown = rows.slice(0, LOG_PAGE);
  const ids = shown.map((r) => r.id);
  const tries = ids.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(inArray(webhookAttempts.deliveryId, ids))
        .orderBy(asc(webhookAttempts.attempt))
    : [];
  return {
    deliveries: shown.map((d) => ({
      ...d,
      tries: tries
        .filter((a) => a.deliveryId === d.id)
        .map(({ attempt, statusCode, error, durationMs, at }) => ({ attempt, statusCode, error, durationMs, at })),
    })),
    hasMore: rows.length > LOG_PAGE,
  };
}

/** Deliveries older than this are dropped from the log. */
export const LOG_KEEP_MS = 30 * 24 * 3600 * 1000;

export async function pruneDeliveries(db: Db, now: number) {
  await atomically(
    db,
    async (tx) =>
      await tx
        .delete(webhookDeliveries)
        .where(
          and(
            lt(webhookDeliveries.createdAt, new Date(now - LOG_KEEP_MS)),
            inArray(webhookDeliveries.status, ["delivered", "failed"]),
          ),
        ),
  );
}
