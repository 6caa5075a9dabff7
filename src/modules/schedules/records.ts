import { eq } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { schedules } from "../../db/tables";

/** Moves a ticket's schedules to another ticket (tickets folded into one). */
export function moveTicketSchedules(tx: Writer, from: number, to: number) {
  tx.update(schedules).set({ ticketId: to }).where(eq(schedules.ticketId, from)).run();
}

/** A contact merged into another: their schedules go with them. */
export function reassignContactSchedules(tx: Writer, from: number, into: number) {
  tx.update(schedules).set({ contactId: into }).where(eq(schedules.contactId, from)).run();
}
