import type { MessageUserReceipt } from "baileys";

/** Baileys status (0 error … 5 played) as our ack, or undefined when absent. */
export function ackOfStatus(status: number | null | undefined): number | undefined {
  return typeof status === "number" && status >= 0 && status <= 5 ? status : undefined;
}

/** The ack a group receipt means: played 5, read 4, delivered 3. */
export function ackOfReceipt(receipt: MessageUserReceipt): number | undefined {
  if (receipt.playedTimestamp) return 5;
  if (receipt.readTimestamp) return 4;
  if (receipt.receiptTimestamp) return 3;
  return undefined;
}

/** Monotonic ack: only moves forward; 0 (error) only replaces pending (≤ 1). */
export function nextAck(old: number | undefined, next: number): number | undefined {
  if (old === undefined) return next;
  if (next === 0) return old <= 1 && old !== 0 ? 0 : undefined;
  return next > old ? next : undefined;
}
