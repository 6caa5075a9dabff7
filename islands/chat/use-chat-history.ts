import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Message, MessagePageDto, Ticket, Wire } from "../../src/shared/contracts";
import { api, callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { useMounted } from "../lib/mounted";
import { join, leave, on } from "../lib/socket";
import { openTicket } from "../lib/ticket-nav";
import { toast } from "../lib/toast";
import { useReadWhileVisible } from "./use-read-while-visible";
import { useTicketEvents } from "./use-ticket-events";

/** Older messages load when the list is scrolled this close to its top. */
const TOP_MARGIN_PX = 100;

export type MessagePage = Wire<MessagePageDto>;

const byTime = (a: Message, b: Message) => +new Date(a.createdAt) - +new Date(b.createdAt) || a.id - b.id;

/**
 * The ticket and its message history: the first page comes from the server render (`initial`) or is fetched,
 * older pages load on scrolling up, each with the ticket's events of its span, and the chat room keeps them live. The list stays at the bottom while the
 * user is there, and keeps its position when older messages are put above; `unseen` counts the customer's
 * messages that arrived below while the user was scrolled up. Customer messages are read as they arrive while
 * the page is on screen. Media that loads later grows the list, so it is pinned again then too.
 */
export function useChatHistory(ticketId: number, initial: MessagePage | null | undefined) {
  const t = useT();
  const [ticket, setTicket] = useState<Ticket | null>(initial?.ticket ?? null);
  const [messages, setMessages] = useState<Message[]>(initial?.messages ?? []);
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? false);
  const [loading, setLoading] = useState(!initial);
  const [failed, setFailed] = useState(false);
  const page = useRef(1);
  const preloaded = useRef(initial ? ticketId : null);
  const initialPage = useRef(initial);
  const list = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const lastScrollTop = useRef(0);
  const keepOffset = useRef<number | null>(null);
  const [unseen, setUnseen] = useState(0);
  const readArrival = useReadWhileVisible(ticketId);
  const { events, loadEventsOf } = useTicketEvents(ticketId);
  /** Set while this user deletes the ticket, so its own `delete` event does not send them away first. */
  const leaving = useRef(false);

  /** Ids of the messages loaded so far, known before React renders them (search waits on it while paging back). */
  const loaded = useRef(new Set((initial?.messages ?? []).map((m) => m.id)));
  /** The message a search jumped to: scrolled into view and highlighted. */
  const [focused, setFocused] = useState<number | null>(null);
  const wanted = useRef<number | null>(null);

  const merge = useCallback((incoming: Message[]) => {
    for (const m of incoming) loaded.current.add(m.id);
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
        const res = await callApi("GET /messages/:ticketId", { params: { ticketId }, query: { pageNumber } });
        merge(res.messages);
        loadEventsOf(res);
        setHasMore(res.hasMore);
        page.current = pageNumber;
        return res.hasMore;
      } finally {
        setLoading(false);
      }
    },
    [ticketId, merge, loadEventsOf],
  );

  useEffect(() => {
    let live = true;
    if (preloaded.current === ticketId) {
      preloaded.current = null;
      if (initialPage.current) loadEventsOf(initialPage.current);
    } else
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
      if (p.action === "create") {
        stickToBottom.current = isNearBottom(list.current);
        if (!p.message.fromMe) {
          readArrival();
          if (!stickToBottom.current) setUnseen((n) => n + 1);
        }
      }
      merge([p.message]);
      if (p.ticket?.id === ticketId) setTicket((prev) => ({ ...prev, ...p.ticket! }));
    });
    const offTicket = on("ticket", (p: { action: string; ticket?: Ticket; ticketId?: number }) => {
      if (p.action === "update" && p.ticket?.id === ticketId) setTicket(p.ticket);
      // "delete" also means "left a status list" (status change): only leave when the ticket is really gone or hidden now.
      if (p.action === "delete" && p.ticketId === ticketId && !leaving.current)
        api<Ticket>(`/tickets/${ticketId}`, { noAuthRedirect: true }).then(
          (tk) => live && setTicket(tk),
          () => live && openTicket(null),
        );
    });
    return () => {
      live = false;
      offMsg();
      offTicket();
      leave(room);
    };
  }, [ticketId, loadPage, merge, t, readArrival, loadEventsOf]);

  // The render after mount adds days and times (the server leaves them out): the list grows, so pin it again then.
  const mounted = useMounted();
  // biome-ignore lint/correctness/useExhaustiveDependencies: new messages and events change the list's height, which this re-pins
  useLayoutEffect(() => {
    const el = list.current;
    if (!el || !mounted) return;
    if (keepOffset.current != null) {
      el.scrollTop = el.scrollHeight - keepOffset.current;
      keepOffset.current = null;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [messages, events, mounted]);

  // Images and videos get their size only once their file loads: a reader at the bottom stays there.
  useEffect(() => {
    const el = list.current;
    if (!el) return;
    const repin = () => {
      if (stickToBottom.current) el.scrollTop = el.scrollHeight;
    };
    // Media events do not bubble, so the list listens in the capture phase.
    el.addEventListener("load", repin, true);
    el.addEventListener("loadedmetadata", repin, true);
    return () => {
      el.removeEventListener("load", repin, true);
      el.removeEventListener("loadedmetadata", repin, true);
    };
  }, []);

  // A message a search jumped to is brought into view once it is rendered (older pages may have just loaded, and
  // their history separators may arrive after their messages, moving it again).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `messages` and `events` re-render the list, which moves the message
  useLayoutEffect(() => {
    if (focused == null) return;
    list.current?.querySelector(`[data-message-id="${focused}"]`)?.scrollIntoView({ block: "center" });
  }, [focused, messages, events]);

  /** Loads older pages until message `id` is in the history, then scrolls to it and highlights it. */
  const focusMessage = useCallback(
    async (id: number | null) => {
      wanted.current = id;
      if (id == null) return setFocused(null);
      stickToBottom.current = false;
      let more = true;
      try {
        while (!loaded.current.has(id) && more) more = await loadPage(page.current + 1);
      } catch (error) {
        toast("error", errorText(t, error));
      }
      // A later jump (the user kept pressing ↑) wins over this one if it ended first.
      if (wanted.current === id) setFocused(id);
    },
    [loadPage, t],
  );

  function onScroll() {
    const el = list.current!;
    // Until the list is shown complete and pinned, a scroll event is the browser laying it out, not the reader.
    if (!mounted) return;
    // Only the reader scrolling up leaves the bottom: a file whose size became known grows the list before its
    // `load` re-pins it, and the scroll event of the previous pin must not read that as the reader leaving.
    const up = el.scrollTop < lastScrollTop.current;
    lastScrollTop.current = el.scrollTop;
    stickToBottom.current = isNearBottom(el) || (stickToBottom.current && !up);
    if (stickToBottom.current) setUnseen(0);
    if (el.scrollTop < TOP_MARGIN_PX && hasMore && !loading) {
      keepOffset.current = el.scrollHeight - el.scrollTop;
      void loadPage(page.current + 1).catch((error) => toast("error", errorText(t, error)));
    }
  }

  function scrollToBottom() {
    const el = list.current;
    if (!el) return;
    stickToBottom.current = true;
    setUnseen(0);
    el.scrollTo({ top: el.scrollHeight, behavior: "smooth" });
  }

  return {
    ticket,
    setTicket,
    messages,
    events,
    loading,
    failed,
    list,
    onScroll,
    stickToBottom,
    leaving,
    unseen,
    scrollToBottom,
    focused,
    focusMessage,
  };
}

function isNearBottom(el: HTMLElement | null) {
  return !el || el.scrollHeight - el.scrollTop - el.clientHeight < 120;
}
