import { Fragment, type RefObject, useState } from "react";
import type { Message } from "../../src/shared/contracts";
import { Bubble } from "../Bubble";
import { dayLabel } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { api } from "../lib/api";
import { errorText } from "../lib/errors";
import { Confirm } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";
import { type Enlarged, Lightbox } from "./Lightbox";

/**
 * The history: a separator per day and where each of the contact's tickets begins, one bubble per message.
 * Images and videos enlarge in a lightbox; the user's own messages can be deleted (after a confirmation), and
 * then show as deleted once the server says so.
 */
export function MessageList({
  list,
  messages,
  ticketId,
  loading,
  failed,
  onScroll,
  onReply,
  onRetry,
  highlighted,
}: {
  list: RefObject<HTMLDivElement | null>;
  messages: Message[];
  ticketId: number;
  loading: boolean;
  failed: boolean;
  onScroll: () => void;
  onReply: (m: Message) => void;
  /** Offered on this ticket's failed messages while it is open. */
  onRetry?: (m: Message) => Promise<void>;
  /** The search hit the user is on. */
  highlighted?: number | null;
}) {
  const t = useT();
  // Days and times are the browser's: the server render leaves them out, the first client render after mount adds them.
  const mounted = useMounted();
  const [enlarged, setEnlarged] = useState<Enlarged | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  async function remove(m: Message) {
    setDeleting(null);
    try {
      await api(`/messages/${m.id}`, { method: "DELETE" });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }
  return (
    <div className="messages" ref={list} onScroll={onScroll} aria-live="polite" aria-busy={loading}>
      {failed && <p className="list-empty">{t("errors.generic")}</p>}
      {!failed && !loading && messages.length === 0 && <p className="list-empty">{t("chat.empty")}</p>}
      {messages.map((m, i) => {
        const day = dayLabel(m.createdAt);
        const showDay = mounted && (i === 0 || dayLabel(messages[i - 1]!.createdAt) !== day);
        // The history spans the contact's tickets: mark where each ticket's messages begin.
        const showTicket = i > 0 && messages[i - 1]!.ticketId !== m.ticketId;
        return (
          <Fragment key={m.id}>
            {showTicket && (
              <div className="day-separator ticket-separator">
                <span>{t("chat.ticketSeparator", { id: m.ticketId })}</span>
              </div>
            )}
            {showDay && (
              <div className="day-separator">
                <span>{day}</span>
              </div>
            )}
            <Bubble
              m={m}
              t={t}
              showTime={mounted}
              onReply={onReply}
              onRetry={onRetry && m.ticketId === ticketId ? onRetry : undefined}
              onEnlarge={setEnlarged}
              onDelete={setDeleting}
              highlighted={m.id === highlighted}
            />
          </Fragment>
        );
      })}
      {enlarged && <Lightbox media={enlarged} onClose={() => setEnlarged(null)} />}
      {deleting && (
        <Confirm
          title={t("chat.deleteTitle")}
          text={t("chat.deleteText")}
          onClose={() => setDeleting(null)}
          onConfirm={() => void remove(deleting)}
        />
      )}
    </div>
  );
}
