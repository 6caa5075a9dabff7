import { and, inArray, type SQLWrapper, sql } from "drizzle-orm";
import { atomically } from "../../db/client";
import { preparedLook } from "../../db/prepared";
import { storedInstant, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import type { SlaTarget } from "../../shared/contracts/tickets";
import { prepareQueuesWithSlaTargets, queuesWithSlaTargets } from "../queues/lookup";
import { recordTicketEvents } from "./history";
import { announceTicketEvents } from "./history-dtos";
import { toTicketDtos } from "./serialize";
import { minutesMs } from "./sla";

/** The recurring job that finds the tickets past their queue's SLA targets. */
export const SLA_SWEEP_JOB = "sla-breaches";
const SWEEP_EVERY_MS = 30_000;
/** Tickets marked per queue, target and transaction: a backlog is worked through in turns of this size. */
const BATCH = 500;

/**
 * Marks the active tickets whose queue's first-response or resolution target has passed in their current episode,
 * each target once per episode, with an `sla_breached` event in the same transaction; then announces each ticket
 * and tells the admins. Each pass reads, per queue with a target, only the tickets still short of it (partial
 * indexes), so it costs the tickets at risk, not the inbox. Returns how many breaches it recorded.
 */
export async function recordSlaBreaches(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  let recorded = 0;
  for (const queue of await queuesWithSlaTargets(deps.db)) {
    if (queue.firstResponse > 0)
      recorded += await breachAll(deps, "first_response", queue.id, now - minutesMs(queue.firstResponse), now);
    if (queue.resolution > 0)
      recorded += await breachAll(deps, "resolution", queue.id, now - minutesMs(queue.resolution), now);
  }
  return recorded;
}

async function breachAll(deps: AppDeps, target: SlaTarget, queueId: number, startedBy: number, now: number) {
  let total = 0;
  for (;;) {
    const found = await breachBatch(deps, target, queueId, startedBy, now);
    total += found;
    if (found < BATCH) return total;
  }
}

/**
 * What a ticket short of `target` in queue `queueId` whose clock started by `by` (as stored) is, written as the
 * partial indexes' predicates so each engine reads those indexes.
 */
function pastDue(target: SlaTarget, queueId: number | SQLWrapper, by: Date | number | SQLWrapper) {
  return target === "first_response"
    ? sql`${tickets.queueId} = ${queueId} and ${tickets.waitingSince} <= ${by} and first_response_at IS NULL AND first_response_breached = false AND status <> 'closed'`
    : sql`${tickets.queueId} = ${queueId} and coalesce(${tickets.episodeStartedAt}, ${tickets.createdAt}) <= ${by} and resolution_breached = false AND status <> 'closed'`;
}

/**
 * Whether a pass has anything to mark: a queue with a target and a ticket past it. Prepared looks only (see
 * JobRunner's `hasWork`): an idle server's passes run no drizzle code.
 */
function breachesDue(deps: AppDeps) {
  prepareQueuesWithSlaTargets(deps.db);
  const looks = { first_response: pastFirstResponse(deps.db), resolution: pastResolution(deps.db) };
  const past = async (target: SlaTarget, queue: number, minutes: number, now: number) =>
    minutes > 0 && (await looks[target]({ queue, by: storedInstant(now - minutesMs(minutes)) })).length > 0;
  return async () => {
    const now = deps.clock.now();
    for (const queue of await queuesWithSlaTargets(deps.db))
      if (
        (await past("first_response", queue.id, queue.firstResponse, now)) ||
        (await past("resolution", queue.id, queue.resolution, now))
      )
        return true;
    return false;
  };
}

const pastDueLook = (target: SlaTarget) =>
  preparedLook((db) =>
    db
      .select({ id: tickets.id })
      .from(tickets)
      .where(pastDue(target, sql.placeholder("queue"), sql.placeholder("by")))
      .limit(1)
      .prepare(),
  );
const pastFirstResponse = pastDueLook("first_response");
const pastResolution = pastDueLook("resolution");

async function breachBatch(deps: AppDeps, target: SlaTarget, queueId: number, startedBy: number, now: number) {
  const at = new Date(now);
  const due = pastDue(target, queueId, storedInstant(startedBy));
  const { rows, events } = await atomically(deps.db, async (tx) => {
    const ids = tx.select({ id: tickets.id }).from(tickets).where(due).limit(BATCH);
    const rows = await tx
      .update(tickets)
      .set({
        ...(target === "first_response" ? { firstResponseBreached: true } : { resolutionBreached: true }),
        // A breach is not activity: the lists keep their order.
        updatedAt: sql`${tickets.updatedAt}`,
      })
      .where(and(inArray(tickets.id, ids), due))
      .returning();
    const events = await recordTicketEvents(
      tx,
      rows.map((ticket) => ({
        ticketId: ticket.id,
        kind: "sla_breached" as const,
        cause: target === "first_response" ? ("sla_first_response" as const) : ("sla_resolution" as const),
        at,
        actorUserId: null,
        before: ticket,
        after: ticket,
      })),
    );
    return { rows, events };
  });
  if (!rows.length) return 0;
  for (const ticket of await toTicketDtos(deps.db, rows)) {
    deps.events.emit("ticket.updated", { ticket });
    deps.events.emit("ticket.slaBreached", { ticket, target });
  }
  await announceTicketEvents(deps, events);
  return rows.length;
}

/** The sweep as a recurring job of the runner; its row in the jobs table carries it over restarts. */
export async function scheduleSlaSweep(deps: AppDeps, everyMs = SWEEP_EVERY_MS) {
  deps.jobs.handle(
    SLA_SWEEP_JOB,
    async () => {
      await recordSlaBreaches(deps);
    },
    { hasWork: breachesDue(deps) },
  );
  await deps.jobs.every(SLA_SWEEP_JOB, everyMs);
}
