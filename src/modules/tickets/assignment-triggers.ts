import type { AppDeps } from "../../deps";
import type { DomainEvent } from "../../events/catalogue";
import { assignWaiting } from "./assignment";

/** The key in `deps.lanes` of the assignments that events start on this node, one after another. */
const ASSIGNMENTS = "tickets:assignment";

/** Resolves once the assignments started by the events heard so far are done. */
export function assignmentsSettled(deps: AppDeps): Promise<void> {
  return deps.lanes.settled(ASSIGNMENTS);
}

/**
 * Someone may now qualify for the tickets waiting in a queue, or one is back in it: a member came online or was
 * added to it, the queue's rule or cap changed, an open ticket was deleted, a waiting ticket woke from a snooze or
 * was reopened without an agent (by a schedule, a campaign, the external API; the inbound pipeline also assigns its
 * own reopens at once). Each node follows its own events (the node where the change happened assigns; the queue's
 * lock keeps two from giving a ticket twice).
 */
export function followAssignmentTriggers(deps: AppDeps) {
  deps.events.subscribe((event) => {
    const queueIds = queuesWhereSomeoneMayQualify(event);
    if (!queueIds.length) return;
    void deps.lanes
      .run(ASSIGNMENTS, async () => {
        for (const queueId of queueIds) await assignWaiting(deps, queueId);
      })
      .catch((error) => deps.log.warn("waiting tickets not assigned", { queueIds, error }));
  });
}

function queuesWhereSomeoneMayQualify({ name, payload }: DomainEvent): number[] {
  switch (name) {
    case "user.availabilityChanged":
    case "user.created":
    case "user.updated":
      return payload.user.availability === "online" ? payload.user.queues.map((q) => q.id) : [];
    case "queue.updated":
      return [payload.queue.id];
    case "ticket.event": {
      // A ticket that comes back (from a snooze, or reopened) waiting in its queue without an agent.
      const { kind, to } = payload.event;
      const back = kind === "woken" || kind === "reopened";
      return back && to.status === "pending" && !to.user && to.queue ? [to.queue.id] : [];
    }
    case "ticket.deleted":
      return payload.ticket.status === "open" && payload.ticket.queueId != null ? [payload.ticket.queueId] : [];
    default:
      return [];
  }
}
