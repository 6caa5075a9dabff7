import type { TFunction } from "i18next";
import type { Ticket, TicketPreview } from "../../src/shared/contracts";
import { useT } from "../lib/i18n-context";
import { Icon } from "../lib/icons";
import { lastMessageText, previewOf } from "../lib/last-message";
import { highlightPieces } from "./search-highlight";

/**
 * What a ticket row shows under the name: in search results the message that matched, with the match marked;
 * otherwise the last message a person wrote, with the ticks of our own.
 */
export function RowPreview({ ticket, search }: { ticket: Ticket; search?: string }) {
  const t = useT();
  const { preview, searchMatch } = ticket;
  if (search && searchMatch)
    return (
      <span className="row-last">
        {highlightPieces(searchMatch.text, search).map((piece, i) =>
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text never move
          piece.match ? <mark key={i}>{piece.text}</mark> : <span key={i}>{piece.text}</span>,
        )}
      </span>
    );
  if (!preview) return <span className="row-last">{lastMessageText(t, ticket.lastMessage)}</span>;
  const { icon, text } = previewOf(t, preview);
  return (
    <span className="row-last">
      {preview.fromMe && <Ticks preview={preview} t={t} />}
      {icon && (
        <span className="row-kind">
          <Icon name={icon} size={16} />
        </span>
      )}
      {text}
    </span>
  );
}

/** The delivery ticks of our own previewed message: clock, one tick, two, two blue. */
function Ticks({ preview, t }: { preview: TicketPreview; t: TFunction }) {
  const [icon, state] =
    preview.ack <= 0
      ? (["clock", "pending"] as const)
      : preview.ack <= 2
        ? (["check", "sent"] as const)
        : preview.ack === 3
          ? (["doneAll", "delivered"] as const)
          : (["doneAll", "read"] as const);
  return (
    <span className={`row-ticks${state === "read" ? " read" : ""}`} role="img" aria-label={t(`chat.ack.${state}`)}>
      <Icon name={icon} size={14} />
    </span>
  );
}
