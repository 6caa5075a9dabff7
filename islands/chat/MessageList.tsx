import { Fragment, type RefObject, useState } from "react";
import type { TFunction } from "i18next";
import type { Message, TicketEvent } from "../../src/shared/contracts";
import { Bubble } from "../Bubble";
import { clockTime, dayLabel } from "../lib/format";
import { useT } from "../lib/i18n-context";
import { api, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { Confirm } from "../lib/modal";
import { useMounted } from "../lib/mounted";
import { toast } from "../lib/toast";
import { ForwardDialog } from "./ForwardDialog";
import { type Enlarged, Lightbox } from "./Lightbox";
import { ticketEventText } from "./ticket-event-text";

/** One line of the history: a message (and whether a ticket other than the previous message's begins), or a change of the ticket with its text. */
type Entry = { at: string; message: Message; newTicket: boolean } | { at: string; event: TicketEvent; text: string };

/**
 * The history: a separator per day and where each of the contact's tickets begins, one bubble per message, and
 * the changes of the ticket (accepted, transferred, resolved…) as slim lines between them by time. Images and videos enlarge in a lightbox; the user's own messages can be deleted (after a confirmation), and
 * then show as deleted once the server says so.
 */
export function MessageList({
  list,
  messages,
  events,
  ticketId,
  loading,
  failed,
  onScroll,
  onReply,
  onRetry,
  highlighted,
  canReact = false,
  canTranslate = false,
}: {
  list: RefObject<HTMLDivElement | null>;
  messages: Message[];
  /** The ticket's history over the span of `messages`. */
  events: TicketEvent[];
  ticketId: number;
  loading: boolean;
  failed: boolean;
  onScroll: () => void;
  onReply: (m: Message) => void;
  /** Offered on this ticket's failed messages while it is open. */
  onRetry?: (m: Message) => Promise<void>;
  /** The search hit the user is on. */
  highlighted?: number | null;
  /** The user may send on this ticket, so may react to its customer's messages. */
  canReact?: boolean;
  /** AI translation is on: the customer's texts offer a translation. */
  canTranslate?: boolean;
}) {
  const t = useT();
  // Days and times are the browser's: the server render leaves them out, the first client render after mount adds them.
  const mounted = useMounted();
  const [enlarged, setEnlarged] = useState<Enlarged | null>(null);
  const [deleting, setDeleting] = useState<Message | null>(null);
  // The messages picked to forward (the one whose Forward was pressed first), then the dialog for them.
  const [picked, setPicked] = useState<number[] | null>(null);
  const [forwarding, setForwarding] = useState<Message[] | null>(null);
  const translations = useTranslations();
  const pick = (m: Message) =>
    setPicked((ids) => (ids?.includes(m.id) ? ids.filter((id) => id !== m.id) : [...(ids ?? []), m.id]));
  async function react(m: Message, emoji: string) {
    try {
      await callApi("POST /messages/:id/react", { params: { id: m.id }, body: { emoji } });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }
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
      {timeline(t, messages, events).map((entry, i, entries) => {
        const day = dayLabel(entry.at);
        const showDay = mounted && (i === 0 || dayLabel(entries[i - 1]!.at) !== day);
        const daySeparator = showDay && (
          <div className="day-separator">
            <span>{day}</span>
          </div>
        );
        if ("event" in entry)
          return (
            <Fragment key={`event-${entry.event.id}`}>
              {daySeparator}
              <p className="event-separator">
                <span>{mounted ? `${entry.text} · ${clockTime(entry.at)}` : entry.text}</span>
              </p>
            </Fragment>
          );
        const m = entry.message;
        return (
          <Fragment key={m.id}>
            {entry.newTicket && (
              <div className="day-separator ticket-separator">
                <span>{t("chat.ticketSeparator", { id: m.ticketId })}</span>
              </div>
            )}
            {daySeparator}
            <Bubble
              m={m}
              t={t}
              showTime={mounted}
              onReply={onReply}
              onRetry={onRetry && m.ticketId === ticketId ? onRetry : undefined}
              onEnlarge={setEnlarged}
              onDelete={setDeleting}
              onForward={picked ? undefined : pick}
              selected={picked?.includes(m.id)}
              onSelect={picked ? pick : undefined}
              onReact={canReact && m.ticketId === ticketId ? (msg, emoji) => void react(msg, emoji) : undefined}
              highlighted={m.id === highlighted}
              onTranslate={canTranslate ? translations.translate : undefined}
              translation={translations.of[m.id]}
            />
          </Fragment>
        );
      })}
      {enlarged && <Lightbox media={enlarged} onClose={() => setEnlarged(null)} />}
      {picked && (
        <div className="forward-bar" role="toolbar" aria-label={t("chat.forward.title")}>
          <span>{t("chat.forward.selected", { count: picked.length })}</span>
          <button type="button" className="button" onClick={() => setPicked(null)}>
            {t("agent.common.cancel")}
          </button>
          <button
            type="button"
            className="button primary"
            disabled={picked.length === 0}
            onClick={() => setForwarding(messages.filter((m) => picked.includes(m.id)))}
          >
            {t("chat.forward.next")}
          </button>
        </div>
      )}
      {forwarding && (
        <ForwardDialog
          messages={forwarding}
          onClose={() => setForwarding(null)}
          onDone={() => {
            setForwarding(null);
            setPicked(null);
          }}
        />
      )}
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

/** Messages and the events the chat shows, by time; an event comes before a message of the same instant. */
function timeline(t: TFunction, messages: Message[], events: TicketEvent[]): Entry[] {
  const shown = events.flatMap((event) => {
    const text = ticketEventText(t, event);
    return text ? [{ at: event.at, event, text }] : [];
  });
  const entries: Entry[] = [];
  let next = 0;
  let ticketId: number | undefined;
  for (const message of messages) {
    while (next < shown.length && +new Date(shown[next]!.at) <= +new Date(message.createdAt))
      entries.push(shown[next++]!);
    // The history spans the contact's tickets: mark where each ticket's messages begin.
    entries.push({
      at: message.createdAt,
      message,
      newTicket: ticketId !== undefined && ticketId !== message.ticketId,
    });
    ticketId = message.ticketId;
  }
  return entries.concat(shown.slice(next));
}

/** The translations asked for in this chat, by message ("" while one is being made); a failure shows a toast. */
function useTranslations() {
  const t = useT();
  const [of, setOf] = useState<Record<number, string>>({});
  async function translate(m: Message) {
    setOf((shown) => ({ ...shown, [m.id]: "" }));
    try {
      const { text } = await callApi("POST /messages/:id/ai/translate", { params: { id: m.id } });
      setOf((shown) => ({ ...shown, [m.id]: text }));
    } catch (error) {
      setOf(({ [m.id]: _, ...rest }) => rest);
      toast("error", errorText(t, error));
    }
  }
  return { of, translate: (m: Message) => void translate(m) };
}
