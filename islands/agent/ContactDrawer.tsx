import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "../lib/api";
import { ContactNumber } from "../lib/contact-number";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { toast } from "../lib/toast";
import { ContactOptOuts } from "../bulk/ContactOptOuts";
import { startTicketWith } from "../lib/start-ticket";
import type { Ticket } from "../../src/shared/contracts";
import { ContactModal, type Contact } from "./ContactModal";
import { ContactTickets } from "./ContactTickets";

type Full = Contact & { extraInfo: { id: number; name: string; value: string | null }[] };

/**
 * The chat's contact side drawer (a modal `<dialog>`): photo, name, phone link, edit and start-ticket buttons, the
 * ticket's satisfaction rating, the tags and private notes over the contact's tickets, bulk opt-outs, extra info,
 * and the contact's tickets (each opens in place).
 */
export function ContactDrawer({
  contactId,
  ticketId,
  userId,
  csat,
  onClose,
}: {
  contactId: number;
  ticketId: number;
  userId: number;
  csat?: Ticket["csat"];
  onClose: () => void;
}) {
  const t = useT();
  const ref = useRef<HTMLDialogElement>(null);
  const [contact, setContact] = useState<Full | null>(null);
  const [editing, setEditing] = useState(false);
  const [starting, setStarting] = useState(false);

  const load = useCallback(() => {
    api<Full>(`/contacts/${contactId}`).then(setContact, (error) => toast("error", errorText(t, error)));
  }, [contactId, t]);
  useEffect(() => {
    load();
    if (ref.current && !ref.current.open) ref.current.showModal();
  }, [load]);
  const closeEdit = useCallback(() => setEditing(false), []);

  return (
    <dialog
      ref={ref}
      className="side-drawer"
      aria-label={t("agent.ticket.contactInfo")}
      onCancel={(e) => (e.preventDefault(), onClose())}
    >
      <header className="side-drawer-header">
        <strong>{t("agent.ticket.contactInfo")}</strong>
        <button type="button" className="icon-button" aria-label={t("agent.common.close")} onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      {contact ? (
        <div className="side-drawer-body">
          <span className="avatar large" aria-hidden="true">
            {contact.profilePicUrl ? (
              <img src={contact.profilePicUrl} alt="" />
            ) : (
              (contact.name || contact.number || "?").slice(0, 1).toUpperCase()
            )}
          </span>
          <strong className="contact-name">{contact.name}</strong>
          <ContactNumber number={contact.number} link />
          {contact.email && <span>{contact.email}</span>}
          <div className="side-drawer-actions">
            <button type="button" className="button small" onClick={() => setEditing(true)}>
              {t("agent.contacts.edit")}
            </button>
            <button
              type="button"
              className="button small primary"
              disabled={starting}
              onClick={async () => {
                setStarting(true);
                if (!(await startTicketWith(t, contactId, userId))) setStarting(false);
              }}
            >
              {t("agent.contacts.startTicket")}
            </button>
          </div>
          {csat !== undefined && (
            <dl className="extra-list csat-rating">
              <div>
                <dt>{t("agent.csat.title")}</dt>
                <dd>
                  {csat
                    ? `${"⭐".repeat(csat.rating)} ${t("chat.csat.rating", { rating: csat.rating })}`
                    : t("agent.csat.none")}
                  {csat?.comment && <q>{csat.comment}</q>}
                </dd>
              </div>
            </dl>
          )}
          <ContactOptOuts contactId={contactId} />
          <ContactTickets contactId={contactId} current={ticketId} />
          {contact.extraInfo.length > 0 && (
            <dl className="extra-list">
              {contact.extraInfo.map((x) => (
                <div key={x.id}>
                  <dt>{x.name}</dt>
                  <dd>{x.value ?? ""}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      ) : (
        <p className="list-empty">{t("app.loading")}</p>
      )}
      {editing && <ContactModal contactId={contactId} onClose={closeEdit} onSaved={load} />}
    </dialog>
  );
}
