import type { Ticket } from "../../src/shared/contracts";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";

export type ChatDialog = "transfer" | "delete" | "contact" | "schedule";

/** The chat's title (opens the contact) and the actions the ticket's status allows. */
export function ChatHeader({
  ticketId,
  ticket,
  name,
  canDelete,
  onStatus,
  onCall,
  onDialog,
}: {
  ticketId: number;
  ticket: Ticket | null;
  name: string;
  canDelete: boolean;
  onStatus: (status: Ticket["status"]) => void;
  onCall: () => void;
  onDialog: (dialog: ChatDialog) => void;
}) {
  const t = useT();
  return (
    <header className="chat-header">
      <a className="icon-button" href="/tickets" aria-label={t("chat.back")}>
        <Icon name="back" />
      </a>
      <button
        type="button"
        className="chat-title"
        onClick={() => onDialog("contact")}
        disabled={!ticket?.contact}
        aria-label={t("agent.ticket.contactDetails", { name })}
      >
        <strong>
          {name} <span className="ticket-id">#{ticketId}</span>
        </strong>
        {ticket && (
          <span className="chat-sub">
            {ticket.user ? t("chat.assignedTo", { name: ticket.user.name }) : t(`tickets.status.${ticket.status}`)}
          </span>
        )}
      </button>
      <div className="chat-actions">
        {ticket?.whatsapp?.hasCall && (
          <button
            type="button"
            className="icon-button"
            aria-label={t("chat.call")}
            title={t("chat.call")}
            onClick={onCall}
          >
            <Icon name="phone" />
          </button>
        )}
        {ticket?.status === "pending" && (
          <button type="button" className="button primary small" onClick={() => onStatus("open")}>
            {t("tickets.accept")}
          </button>
        )}
        {ticket?.status === "open" && (
          <>
            <button type="button" className="button small" onClick={() => onStatus("pending")}>
              {t("chat.return")}
            </button>
            <button type="button" className="button primary small" onClick={() => onStatus("closed")}>
              {t("chat.resolve")}
            </button>
          </>
        )}
        {ticket && (
          <button type="button" className="button small" onClick={() => onDialog("transfer")}>
            {t("agent.transfer.open")}
          </button>
        )}
        {ticket && canDelete && (
          <button type="button" className="button small danger" onClick={() => onDialog("delete")}>
            {t("agent.common.delete")}
          </button>
        )}
        {ticket?.status === "closed" && (
          <button type="button" className="button primary small" onClick={() => onStatus("open")}>
            {t("chat.reopen")}
          </button>
        )}
      </div>
    </header>
  );
}
