import { and, eq, lt, type SQLWrapper, sql } from "drizzle-orm";
import { preparedLook } from "../../db/prepared";
import { storedInstant, tickets } from "../../db/tables";
import type { AppDeps } from "../../deps";
import { applyTicketChanges, TicketMovedOn } from "./service";
import type { JobRunner } from "../../jobs/runner";

/**
 * Auto-close: open tickets whose last update is older than
 * `AUTO_CLOSE_HOURS` are closed by the server, keeping their user, without the farewell, with the usual
 * events. Runs every minute; 0 or unset disables it. Returns the ids it closed.
 */
export async function closeStaleTickets(deps: AppDeps, hours: number): Promise<number[]> {
  if (!(hours > 0)) return [];
  const cutoff = new Date(deps.clock.now() - hours * 3600_000);
  const stale = await deps.db
    .select({ id: tickets.id, userId: tickets.userId })
    .from(tickets)
    .where(staleSince(cutoff))
    .limit(500);
  const closed: number[] = [];
  for (const ticket of stale) {
    try {
      await applyTicketChanges(
        deps,
        ticket.id,
        { status: "closed", userId: ticket.userId },
        {
          actor: null,
          markRead: false,
          farewell: false,
          cause: "auto_close",
          // A message or an agent may have woken it up since the list was read.
          proceedIf: (current) => current.status === "open" && current.updatedAt < cutoff,
        },
      );
      closed.push(ticket.id);
    } catch (error) {
      if (error instanceof TicketMovedOn) continue;
      deps.log.warn("auto-close failed", { ticketId: ticket.id, error });
    }
  }
  if (closed.length) deps.log.info("auto-closed stale tickets", { count: closed.length, hours });
  return closed;
}

const staleSince = (cutoff: Date | SQLWrapper) => and(eq(tickets.status, "open"), lt(tickets.updatedAt, cutoff));

/** Whether a pass has a ticket to close: one prepared look (see JobRunner's `hasWork`). */
function staleToClose(deps: AppDeps, hours: number) {
  const look = anyStale(deps.db);
  return async () => (await look({ cutoff: storedInstant(deps.clock.now() - hours * 3600_000) })).length > 0;
}

const anyStale = preparedLook((db) =>
  db
    .select({ id: tickets.id })
    .from(tickets)
    .where(staleSince(sql.placeholder("cutoff")))
    .limit(1)
    .prepare(),
);

/** Auto-close as a recurring job of the runner, every minute while `hours` is positive. */
export async function scheduleAutoClose(jobs: JobRunner, deps: AppDeps, hours: number, everyMs = 60_000) {
  jobs.handle(
    "auto-close",
    async () => {
      await closeStaleTickets(deps, hours);
    },
    hours > 0 ? { hasWork: staleToClose(deps, hours) } : {},
  );
  if (hours > 0) await jobs.every("auto-close", everyMs);
  else await jobs.never("auto-close");
}
