import type { Ticket } from "../../src/shared/contracts";
import { useT } from "../lib/i18n-context";
import { useNow } from "../lib/use-now";
import { pastTarget, waitParts } from "./waiting";

/**
 * How long the customer has been waiting for a reply ("12 min"), kept current by a local timer, and a breach mark
 * once the ticket passed an SLA target of its queue. Nothing before mount or when nobody waits and nothing breached.
 */
export function WaitingMark({ ticket }: { ticket: Ticket }) {
  const t = useT();
  const now = useNow();
  if (now === null) return null;
  const breached = pastTarget(ticket, now);
  const waiting = ticket.waitingSince ? waitParts(now - Date.parse(ticket.waitingSince)) : null;
  if (!waiting && !breached) return null;
  const wait = waiting ? t(`tickets.sla.${waiting.key}`, { n: waiting.n }) : "";
  return (
    <span
      className={breached ? "waiting breached" : "waiting"}
      title={[waiting && t("tickets.sla.waiting", { wait }), breached && t("tickets.sla.breached")]
        .filter(Boolean)
        .join(" · ")}
    >
      {breached && (
        <span role="img" aria-label={t("tickets.sla.breached")}>
          !
        </span>
      )}
      {wait}
    </span>
  );
}
