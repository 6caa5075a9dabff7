import type { Ticket } from "../../src/shared/contracts";
import { listTime } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { useMounted } from "../lib/mounted";
import { DraftLine } from "./DraftLine";
import { RowPreview } from "./RowPreview";
import { textColorOn } from "../lib/color-presets";
import { WaitingMark } from "./WaitingMark";

/** One row of the ticket list: queue colour, avatar, name, time, last message, unread count, tags; pending rows offer accept. */
export function TicketRow({
  ticket,
  selected,
  onAccept,
  search,
}: {
  ticket: Ticket;
  selected: boolean;
  onAccept: (t: Ticket) => void;
  /** In search results: what was searched, marked in the matching message. */
  search?: string;
}) {
  const t = useT();
  const mounted = useMounted();
  const name = ticket.contact?.name || ticket.contact?.number || `#${ticket.id}`;
  const body = (
    <>
      <span
        className="queue-bar"
        style={{ background: ticket.queue?.color ?? "#b0bec5" }}
        title={ticket.queue?.name ?? t("tickets.noQueue")}
      />
      <span className="avatar small" aria-hidden="true">
        {ticket.contact?.profilePicUrl ? (
          <img src={ticket.contact.profilePicUrl} alt="" />
        ) : (
          name.slice(0, 1).toUpperCase()
        )}
      </span>
      <span className="row-main">
        <span className="row-top">
          <strong className="row-name">{name}</strong>
          <time className="row-time" dateTime={ticket.updatedAt}>
            {mounted ? listTime(ticket.updatedAt) : ""}
          </time>
        </span>
        <span className="row-bottom">
          <DraftLine ticketId={ticket.id} />
          <RowPreview ticket={ticket} search={search} />
          <WaitingMark ticket={ticket} />
          {ticket.unreadMessages > 0 && (
            <span className="unread" role="img" aria-label={t("tickets.unread", { n: ticket.unreadMessages })}>
              {ticket.unreadMessages}
            </span>
          )}
        </span>
        {(ticket.tags.length > 0 || ticket.whatsapp) && (
          <span className="row-tags">
            {ticket.whatsapp && <span className="chip">{ticket.whatsapp.name}</span>}
            {ticket.tags.map((tag) => (
              <span key={tag.id} className="chip" style={{ background: tag.color, color: textColorOn(tag.color) }}>
                {tag.name}
              </span>
            ))}
          </span>
        )}
      </span>
    </>
  );
  if (ticket.status === "pending") {
    return (
      <li className="ticket-row pending" data-ticket-id={ticket.id}>
        {body}
        <button type="button" className="button primary small" onClick={() => onAccept(ticket)}>
          {t("tickets.accept")}
        </button>
      </li>
    );
  }
  return (
    <li data-ticket-id={ticket.id}>
      {/* On the tickets page a click opens it in place (see openTicketLinksInPlace). */}
      <a className="ticket-row" href={`/tickets/${ticket.id}`} aria-current={selected ? "page" : undefined}>
        {body}
      </a>
    </li>
  );
}
