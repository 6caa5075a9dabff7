import type { Ticket } from "../../src/shared/contracts";
import type { ChatPresence } from "../../src/shared/contracts/presence";
import { dateTimeLabel } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { MenuButton } from "../lib/menu-button";
import { SnoozeMenu } from "./SnoozeMenu";

export type ChatDialog = "transfer" | "delete" | "contact" | "schedule" | "summary" | "template";

/** One button of the header: its text, its look and what it does. */
interface Action {
  label: string;
  kind?: "primary" | "danger";
  run: () => void;
}

/**
 * The chat's title (opens the contact) and the actions the ticket's status allows: buttons on a wide screen, an
 * overflow menu on a phone (the stylesheet shows one or the other), so the contact's name keeps its room.
 */
export function ChatHeader({
  ticketId,
  ticket,
  name,
  canDelete,
  canSnooze,
  onStatus,
  onSnooze,
  onUnsnooze,
  onCall,
  onDialog,
  onSearch,
  canSummarize = false,
  presence = null,
}: {
  ticketId: number;
  ticket: Ticket | null;
  name: string;
  canDelete: boolean;
  /** The ticket is active and the user holds it or is an admin. */
  canSnooze: boolean;
  onStatus: (status: Ticket["status"]) => void;
  onSnooze: (until: Date) => void;
  onUnsnooze: () => void;
  onCall: () => void;
  onDialog: (dialog: ChatDialog) => void;
  onSearch: () => void;
  /** The AI summary is on: the menu offers it. */
  canSummarize?: boolean;
  /** The customer's presence in the chat, as WhatsApp last told it. */
  presence?: ChatPresence | null;
}) {
  const t = useT();
  const actions = headerActions(ticket, canDelete, onStatus, onDialog, t);
  if (ticket) actions.push({ label: t("chat.search.open"), run: onSearch });
  if (ticket && canSummarize) actions.push({ label: t("chat.ai.summary"), run: () => onDialog("summary") });
  return (
    <header className="chat-header">
      <a className="icon-button chat-back" href="/tickets" aria-label={t("chat.back")}>
        <Icon name="back" />
      </a>
      <button type="button" className="chat-title" onClick={() => onDialog("contact")} disabled={!ticket?.contact}>
        <span className="sr-only">{t("agent.ticket.contactDetails")} </span>
        {/* Until the ticket arrives (another one was just opened) a grey bar holds the title's place. */}
        {ticket ? (
          <strong>
            {name} <span className="ticket-id">#{ticketId}</span>
          </strong>
        ) : (
          <span className="chat-title-placeholder" />
        )}
        {ticket && (
          <span className="chat-sub">
            {presenceText(presence, t)}
            {ticket.user ? t("chat.assignedTo", { name: ticket.user.name }) : t(`tickets.status.${ticket.status}`)}
            {ticket.snoozedUntil && ` · ${t("chat.snooze.until", { time: dateTimeLabel(ticket.snoozedUntil) })}`}
            {ticket.csat && (
              <span className="csat-note" title={ticket.csat.comment ?? undefined}>
                {` · ⭐ ${t("chat.csat.rating", { rating: ticket.csat.rating })}`}
              </span>
            )}
          </span>
        )}
      </button>
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
      {ticket && canSnooze && <SnoozeMenu ticket={ticket} onSnooze={onSnooze} onUnsnooze={onUnsnooze} />}
      <div className="chat-actions">
        {actions.map((a) => (
          <button
            key={a.label}
            type="button"
            className={a.kind ? `button small ${a.kind}` : "button small"}
            onClick={a.run}
          >
            {a.label}
          </button>
        ))}
      </div>
      {actions.length > 0 && (
        <MenuButton
          className="chat-more"
          buttonClassName="icon-button"
          label={t("chat.more")}
          haspopup="menu"
          button={<Icon name="more" />}
          menuRole="menu"
          menu={(close) =>
            actions.map((a) => (
              <button key={a.label} type="button" role="menuitem" onClick={() => (close(), a.run())}>
                {a.label}
              </button>
            ))
          }
        />
      )}
    </header>
  );
}

/** The customer's presence as WhatsApp words it ("typing…", "online"), ahead of the ticket's own line. */
function presenceText(presence: ChatPresence | null, t: ReturnType<typeof useT>) {
  const key =
    presence === "composing"
      ? "typing"
      : presence === "recording"
        ? "recording"
        : presence === "available" || presence === "paused"
          ? "online"
          : null;
  return key && <span className={`chat-presence ${key}`}>{`${t(`chat.presence.${key}`)} · `}</span>;
}

/** What the agent can do with the ticket in its status, the main step first. */
function headerActions(
  ticket: Ticket | null,
  canDelete: boolean,
  onStatus: (status: Ticket["status"]) => void,
  onDialog: (dialog: ChatDialog) => void,
  t: ReturnType<typeof useT>,
): Action[] {
  if (!ticket) return [];
  const actions: Action[] = [];
  if (ticket.status === "pending")
    actions.push({ label: t("tickets.accept"), kind: "primary", run: () => onStatus("open") });
  if (ticket.status === "open") {
    actions.push({ label: t("chat.return"), run: () => onStatus("pending") });
    actions.push({ label: t("chat.resolve"), kind: "primary", run: () => onStatus("closed") });
  }
  actions.push({ label: t("agent.transfer.open"), run: () => onDialog("transfer") });
  if (canDelete) actions.push({ label: t("agent.common.delete"), kind: "danger", run: () => onDialog("delete") });
  if (ticket.status === "closed")
    actions.push({ label: t("chat.reopen"), kind: "primary", run: () => onStatus("open") });
  return actions;
}
