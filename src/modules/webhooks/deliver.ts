import { atomically, one } from "../../db/client";
import { eq } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { type DeliverPayload, enqueueAttempt } from "./deliveries";
import { signBody } from "./sign";
import { checkTarget, type TargetPolicy, targetPolicy } from "./target-check";

/** A delivery is tried again for this long after the event, with the waits below growing in between. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 3600 * 1000;
/** A receiver that takes longer than this to answer counts as a failed attempt. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** Wait after failed attempt `n`: 30 s, 1 min, 2 min … up to an hour. */
export const retryDelay = (attempt: number) => Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (attempt - 1));

/** The log's only words for a target refused as internal: nothing about whether anything answers there. */
export const TARGET_REFUSED = "target address not allowed";

interface Outcome {
  statusCode: number | null;
  error: string | null;
}

/**
 * Checks the target again (its name may resolve elsewhere by now) and posts to the address checked. A refused
 * target is never connected to, so its attempts all read alike whether a port there is open, closed or silent.
 */
async function post(
  policy: TargetPolicy,
  endpoint: { url: string; secret: string },
  delivery: { id: number; event: string; body: string },
): Promise<Outcome> {
  const { url, secret } = endpoint;
  const { id: deliveryId, event, body } = delivery;
  const target = await checkTarget(new URL(url), policy);
  if (!target.ok)
    return { statusCode: null, error: target.reason === "internal" ? TARGET_REFUSED : target.error.slice(0, 500) };
  const { connection } = target;
  try {
    const res = await fetch(connection.url, {
      method: "POST",
      body,
      // A redirect is a failed attempt: following it would reach an address nobody checked.
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      headers: {
        ...(connection.host ? { host: connection.host } : {}),
        "content-type": "application/json",
        "user-agent": "Zapdesk-Webhooks",
        "x-zapdesk-event": event,
        "x-zapdesk-delivery": String(deliveryId),
        "x-zapdesk-signature": signBody(secret, body),
      },
      ...(connection.serverName ? { tls: { serverName: connection.serverName } } : {}),
    });
    await res.body?.cancel().catch(() => {});
    return { statusCode: res.status, error: res.status >= 200 && res.status < 300 ? null : `HTTP ${res.status}` };
  } catch (error) {
    // The log names the endpoint's URL, not the address it was pinned to.
    const message = error instanceof Error ? error.message.replaceAll(connection.url, url) : "request failed";
    return { statusCode: null, error: message.slice(0, 500) };
  }
}

/**
 * One attempt of one delivery. An attempt already recorded is not made again (a job can run twice after a
 * crash); only its follow-up is queued again if needed. A non-2xx answer, a redirect, a timeout, a network
 * error or a target refused as internal is a failure, tried again after `retryDelay` while within RETRY_WINDOW_MS
 * of the event (a name pointed inside by mistake and fixed meanwhile still gets its events).
 */
export async function deliverAttempt(deps: AppDeps, payload: DeliverPayload) {
  const row = await one(
    deps.db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, payload.deliveryId)),
  );
  if (row?.delivery.status !== "pending") return;
  const { delivery, endpoint } = row;
  if (delivery.attempts >= payload.attempt) {
    if (delivery.nextAttemptAt != null)
      await enqueueAttempt(deps, delivery.id, delivery.attempts + 1, delivery.nextAttemptAt);
    return;
  }
  if (!endpoint.active) {
    await atomically(
      deps.db,
      async (tx) =>
        await tx
          .update(webhookDeliveries)
          .set({
            status: "failed",
            lastError: "endpoint inactive",
            nextAttemptAt: null,
            updatedAt: new Date(deps.clock.now()),
          })
          .where(eq(webhookDeliveries.id, delivery.id)),
    );
    return;
  }

  const started = performance.now();
  const outcome = await post(targetPolicy(deps), endpoint, delivery);
  const durationMs = Math.round(performance.now() - started);
  const now = deps.clock.now();
  const ok = outcome.error == null;
  const next = now + retryDelay(payload.attempt);
  const retry = !ok && next <= delivery.createdAt.getTime() + RETRY_WINDOW_MS;
  await atomically(deps.db, async (tx) => {
    await tx
      .insert(webhookAttempts)
      .values({
        deliveryId: delivery.id,
        attempt: payload.attempt,
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs,
        at: now,
      })
      .onConflictDoNothing();
    await tx
      .update(webhookDeliveries)
      .set({
        attempts: payload.attempt,
        status: ok ? "delivered" : retry ? "pending" : "failed",
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        nextAttemptAt: retry ? next : null,
        updatedAt: new Date(now),
      })
      .where(eq(webhookDeliveries.id, delivery.id));
  });
  if (retry) await enqueueAttempt(deps, delivery.id, payload.attempt + 1, next);
}
