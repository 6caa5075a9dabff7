import { Fragment, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { can } from "../src/shared/permissions";
import { Bubble } from "./Bubble";
import { ContactDrawer } from "./agent/ContactDrawer";
import { QuickAnswerPicker } from "./agent/QuickAnswerPicker";
import { ScheduleModal } from "./agent/ScheduleModal";
import { TagEditor } from "./agent/TagEditor";
import { TransferDialog } from "./agent/TransferDialog";
import { VoiceRecorder } from "./agent/VoiceRecorder";
import { api } from "./lib/api";
import { getBoot } from "./lib/boot";
import { errorText } from "./lib/errors";
import { dayLabel } from "./lib/format";
import { useT } from "./lib/i18n-context";
import { Icon } from "./lib/icons";
import { Confirm } from "./lib/modal";
import { useMounted } from "./lib/mounted";
import { join, leave, on } from "./lib/socket";
import { toast } from "./lib/toast";
import type { Message, Ticket } from "../src/shared/contracts";

const MAX_ROWS = 5;
/** LocalStorage key of the sign-message toggle (persisted locally). */
const SIGN_KEY = "zapdesk.signMessage";
const TOP_MARGIN_PX = 100;

interface Props {
  ticketId: number;
  userId: number;
}

const byTime = (a: Message, b: Message) => +new Date(a.createdAt) - +new Date(b.createdAt) || a.id - b.id;

/** The chat of one ticket: header with actions, paged history, live messages and acks, and the input. */
export default function Chat({ ticketId, userId }: Props) {
  const t = useT();
  const [ticket, setTicket] = useState<Ticket | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [text, setText] = useState("");
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [sending, setSending] = useState(false);
  // Read after mount only, so the server HTML and the hydrating client render agree.
  const [sign, setSign] = useState(false);
  const [recording, setRecording] = useState(false);
  const page = useRef(1);
  const list = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const keepOffset = useRef<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [dialog, setDialog] = useState<"transfer" | "delete" | "contact" | "schedule" | null>(null);
  const leaving = useRef(false);
  const mounted = useMounted();
  const canDelete = mounted && can(getBoot()?.user?.profile, "ticket-options:deleteTicket");

  useEffect(() => {
    try {
      setSign(localStorage.getItem(SIGN_KEY) === "true");
    } catch {
      // Storage blocked: the toggle just starts off.
    }
  }, []);

  function toggleSign() {
    const next = !sign;
    setSign(next);
    try {
      localStorage.setItem(SIGN_KEY, String(next));
    } catch {
      // Storage blocked: the choice lasts for this page only.
    }
  }

  /** With the sign toggle on, the body starts with the user's name in bold. */
  function signed(body: string) {
    const userName = getBoot()?.user?.name;
    return sign && userName && body ? `*${userName}:*\n${body}` : body;
  }

  const merge = useCallback((incoming: Message[]) => {
    setMessages((prev) => {
      const map = new Map(prev.map((m) => [m.id, m]));
      for (const m of incoming) map.set(m.id, { ...map.get(m.id), ...m });
      return [...map.values()].sort(byTime);
    });
  }, []);

  const loadPage = useCallback(
    async (pageNumber: number) => {
      setLoading(true);
      try {
        const res = await api<{ messages: Message[]; ticket?: Ticket; hasMore: boolean }>(
          `/messages/${ticketId}?pageNumber=${pageNumber}`,
        );
        merge(res.messages);
        setHasMore(res.hasMore);
        page.current = pageNumber;
      } finally {
        setLoading(false);
      }
    },
    [ticketId, merge],
  );

  useEffect(() => {
    let live = true;
    Promise.all([api<Ticket>(`/tickets/${ticketId}`), loadPage(1)])
      .then(([tk]) => live && setTicket(tk))
      .catch((error) => {
        if (!live) return;
        setFailed(true);
        toast("error", errorText(t, error));
      });
    const room = { type: "joinChatBox" as const, ticketId };
    join(room);
    const offMsg = on("appMessage", (p: { action: string; message?: Message; ticket?: Ticket; messageId?: number }) => {
      // A message cancelled before it was sent is gone.
      if (p.action === "delete" && p.messageId != null) {
        const gone = p.messageId;
        setMessages((prev) => prev.filter((m) => m.id !== gone));
        return;
      }
      if (!p.message || p.message.ticketId !== ticketId) return;
      if (p.action === "create") stickToBottom.current = isNearBottom(list.current);
      merge([p.message]);
      if (p.ticket?.id === ticketId) setTicket((prev) => ({ ...prev, ...p.ticket! }));
    });
    const offTicket = on("ticket", (p: { action: string; ticket?: Ticket; ticketId?: number }) => {
      if (p.action === "update" && p.ticket?.id === ticketId) setTicket(p.ticket);
      // "delete" also means "left a status list" (status change): only leave when the ticket is really gone or hidden now.
      if (p.action === "delete" && p.ticketId === ticketId && !leaving.current)
        api<Ticket>(`/tickets/${ticketId}`, { noAuthRedirect: true }).then(
          (tk) => live && setTicket(tk),
          () => live && location.assign("/tickets"),
        );
    });
    return () => {
      live = false;
      offMsg();
      offTicket();
      leave(room);
    };
  }, [ticketId, loadPage, merge, t]);

  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    if (keepOffset.current != null) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages]);

  // The input grows with its content (wrapped lines too) up to MAX_ROWS rows, then scrolls.
  useLayoutEffect(() => {
    const el = textarea.current;
    if (!el) return;
    const style = getComputedStyle(el);
    const line = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2;
    const padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
    const border = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
    const inner = (px: number) => (style.boxSizing === "border-box" ? px + padding + border : px);
    el.style.height = "auto";
    const content = el.scrollHeight - padding;
    el.style.height = `${inner(Math.min(content, line * MAX_ROWS))}px`;
    el.style.overflowY = content > line * MAX_ROWS + 1 ? "auto" : "hidden";
  }, [text]);

  function onScroll() {
    const el = list.current!;
    stickToBottom.current = isNearBottom(el);
    if (el.scrollTop < TOP_MARGIN_PX && hasMore && !loading) {
      keepOffset.current = el.scrollHeight - el.scrollTop;
      void loadPage(page.current + 1).catch((error) => toast("error", errorText(t, error)));
    }
  }

  async function setStatus(status: Ticket["status"]) {
    try {
      const updated = await api<Ticket>(`/tickets/${ticketId}`, {
        method: "PUT",
        body: {
          status,
          userId: status === "pending" ? null : status === "closed" ? (ticket?.userId ?? userId) : userId,
        },
      });
      if (status === "open") setTicket((prev) => ({ ...prev!, ...updated }));
      else location.assign("/tickets");
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  async function deleteTicket() {
    setDialog(null);
    leaving.current = true;
    try {
      await api(`/tickets/${ticketId}`, { method: "DELETE" });
      toast("success", t("agent.ticket.deleted"));
      location.assign("/tickets");
    } catch (error) {
      leaving.current = false;
      toast("error", errorText(t, error));
    }
  }

  async function send(files?: FileList | File[] | null) {
    const body = text.trim();
    if (!files?.length && !body) return;
    setSending(true);
    try {
      if (files?.length) {
        const form = new FormData();
        for (const f of files) form.append("medias", f);
        form.append("body", body ? signed(body) : files[0]!.name);
        await api(`/messages/${ticketId}`, { method: "POST", body: form });
      } else {
        await api(`/messages/${ticketId}`, {
          method: "POST",
          body: { body: signed(body), ...(replyTo ? { quotedMsg: { id: replyTo.id } } : {}) },
        });
      }
      stickToBottom.current = true;
      setText("");
      setReplyTo(null);
    } catch (error) {
      toast("error", errorText(t, error));
    } finally {
      setSending(false);
    }
  }

  /** Sends a failed message again; its bubble follows through the chat's realtime updates. */
  async function retry(m: Message) {
    try {
      await api(`/messages/${m.id}/retry`, { method: "POST" });
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  /**
   * Opens the Wavoip web dialer for the contact in a new window. The server builds its URL (it holds the
   * connection's call token), so the window is opened first and pointed there once the answer comes: a window
   * opened after an await would be blocked as a popup.
   */
  async function startCall() {
    if (!ticket?.contact?.number?.replace(/\D/g, "")) {
      toast("error", t("chat.callFailed"));
      return;
    }
    const popup = window.open("", "wavoip", "width=440,height=640");
    try {
      const { url } = await api<{ url: string }>(`/tickets/${ticketId}/call`);
      if (popup) {
        popup.opener = null;
        popup.location.href = url;
      }
    } catch {
      popup?.close();
      toast("error", t("chat.callFailed"));
    }
  }

  function onKey(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    }
  }

  const isOpen = ticket?.status === "open";
  const name = ticket?.contact?.name || ticket?.contact?.number || "";
  const rows = Math.min(MAX_ROWS, Math.max(1, text.split("\n").length));

  return (
    <section className="chat" aria-label={name || t("chat.title")}>
      <header className="chat-header">
        <a className="icon-button" href="/tickets" aria-label={t("chat.back")}>
          <Icon name="back" />
        </a>
        <button
          type="button"
          className="chat-title"
          onClick={() => setDialog("contact")}
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
              onClick={() => void startCall()}
            >
              <Icon name="phone" />
            </button>
          )}
          {ticket?.status === "pending" && (
            <button type="button" className="button primary small" onClick={() => setStatus("open")}>
              {t("tickets.accept")}
            </button>
          )}
          {ticket?.status === "open" && (
            <>
              <button type="button" className="button small" onClick={() => setStatus("pending")}>
                {t("chat.return")}
              </button>
              <button type="button" className="button primary small" onClick={() => setStatus("closed")}>
                {t("chat.resolve")}
              </button>
            </>
          )}
          {ticket && (
            <button type="button" className="button small" onClick={() => setDialog("transfer")}>
              {t("agent.transfer.open")}
            </button>
          )}
          {ticket && canDelete && (
            <button type="button" className="button small danger" onClick={() => setDialog("delete")}>
              {t("agent.common.delete")}
            </button>
          )}
          {ticket?.status === "closed" && (
            <button type="button" className="button primary small" onClick={() => setStatus("open")}>
              {t("chat.reopen")}
            </button>
          )}
        </div>
      </header>
      {ticket && <TagEditor ticket={ticket} onChange={(tk) => setTicket(tk)} />}
      {dialog === "transfer" && ticket && <TransferDialog ticket={ticket} onClose={() => setDialog(null)} />}
      {dialog === "delete" && (
        <Confirm
          title={t("agent.ticket.deleteTitle", { id: ticketId })}
          text={t("agent.ticket.deleteText")}
          onClose={() => setDialog(null)}
          onConfirm={deleteTicket}
        />
      )}
      {dialog === "contact" && ticket?.contact && (
        <ContactDrawer contactId={ticket.contact.id} onClose={() => setDialog(null)} />
      )}
      {dialog === "schedule" && ticket?.contact && (
        <ScheduleModal
          value={null}
          prefill={{ contact: { id: ticket.contact.id, name: name }, body: text, ticketId: ticket.id }}
          onClose={() => setDialog(null)}
          onSaved={() => setText("")}
        />
      )}
      <div className="messages" ref={list} onScroll={onScroll} aria-live="polite" aria-busy={loading}>
        {failed && <p className="list-empty">{t("errors.generic")}</p>}
        {!failed && !loading && messages.length === 0 && <p className="list-empty">{t("chat.empty")}</p>}
        {messages.map((m, i) => {
          const day = dayLabel(m.createdAt);
          const showDay = i === 0 || dayLabel(messages[i - 1]!.createdAt) !== day;
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
                onReply={setReplyTo}
                onRetry={isOpen && m.ticketId === ticketId ? retry : undefined}
              />
            </Fragment>
          );
        })}
      </div>
      {replyTo && (
        <div className="reply-preview">
          <div className="quote">
            <strong>{replyTo.fromMe ? t("chat.you") : name}</strong>
            <span>{replyTo.body}</span>
          </div>
          <button
            type="button"
            className="icon-button"
            aria-label={t("chat.cancelReply")}
            onClick={() => setReplyTo(null)}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
      )}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <input
          ref={fileInput}
          type="file"
          hidden
          multiple
          onChange={(e) => void send(e.target.files).then(() => (e.target.value = ""))}
        />
        <button
          type="button"
          className="icon-button"
          aria-label={t("chat.attach")}
          disabled={!isOpen || sending}
          onClick={() => fileInput.current?.click()}
        >
          <Icon name="attach" />
        </button>
        <button
          type="button"
          className={`icon-button sign${sign ? " on" : ""}`}
          aria-label={t("chat.sign")}
          title={t("chat.sign")}
          aria-pressed={sign}
          onClick={toggleSign}
        >
          <Icon name="sign" />
        </button>
        <textarea
          ref={textarea}
          aria-label={t("chat.placeholder")}
          placeholder={isOpen ? t("chat.placeholder") : t("chat.closedPlaceholder")}
          rows={rows}
          value={text}
          maxLength={4096}
          disabled={!isOpen || recording}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={onKey}
        />
        {isOpen && <QuickAnswerPicker text={text} onPick={(message) => setText(message)} />}
        <button
          type="button"
          className="icon-button"
          aria-label={t("chat.sendLater")}
          title={t("chat.sendLater")}
          disabled={!ticket?.contact || recording}
          onClick={() => setDialog("schedule")}
        >
          <Icon name="clock" />
        </button>
        {isOpen && (recording || !text.trim()) ? (
          <VoiceRecorder
            t={t}
            disabled={sending}
            onRecordingChange={setRecording}
            onSend={(file) => void send([file])}
          />
        ) : (
          <button
            type="submit"
            className="icon-button send"
            aria-label={t("chat.send")}
            disabled={!isOpen || sending || !text.trim()}
          >
            <Icon name="send" />
          </button>
        )}
      </form>
    </section>
  );
}

function isNearBottom(el: HTMLElement | null) {
  return !el || el.scrollHeight - el.scrollTop - el.clientHeight < 120;
}
