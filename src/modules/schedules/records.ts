import { eq } from "drizzle-orm";
import type { Writer } from "../../db/client";
import { schedules } from "../../db/tables";

/** Moves a ticket's schedules to another ticket (tickets folded into one). */
export async function moveTicketSchedules(tx: Writer, from: number, to: number) {
  await tx.update(schedules).set({ ticketId: to }).where(eq(schedules.ticketId, from));
}

/** A contact merged into another: their schedules go with them. */
export async function reassignContactSchedules(tx: Writer, from: number, into: number) {
  await tx.update(schedules).set({ contactId: into }).where(eq(schedules.contactId, from));
}
