import { useCallback, useEffect, useRef, useState } from "react";
import { callApi } from "./api";
import { join, leave, on } from "./socket";
import type { Ticket, TicketListQuery, TicketPageDto, Wire } from "../../src/shared/contracts";
import { ticketInList, type TicketListViewer } from "../../src/shared/ticket-filter";

/** What a ticket list shows: the filters of GET /tickets it sets (the page is the list's own business). */
export type TicketListFilter = Pick<TicketListQuery, "status" | "searchParam" | "tags" | "snoozed"> &
  Required<Pick<TicketListQuery, "showAll" | "queueIds">>;

export type Page = Wire<TicketPageDto>;

/** Whether a ticket from the socket belongs in this list, by the same rule as the server's list query. */
function matches(t: Ticket, q: TicketListFilter, viewer: TicketListViewer): boolean {
  // No queue picked sends no queue filter, so the server lists every queue the viewer may see.
  const queueIds = q.queueIds.length ? q.queueIds : undefined;
  return ticketInList(t, { status: q.status, showAll: q.showAll, queueIds, tags: q.tags, snoozed: q.snoozed }, viewer);
}

/** Fewer rows than this from a page that has more to follow do not fill the list. */
const FILL_ROWS = 20;

const byUpdated = (a: Ticket, b: Ticket) => +new Date(b.updatedAt) - +new Date(a.updatedAt);

type AckChange = { ticketId?: number; messageId?: number; ack?: number };

/** The row's ticks move on when the message it previews was delivered or read. */
function withAck(t: Ticket, { ticketId, messageId, ack }: AckChange): Ticket {
  if (t.id !== ticketId || !t.preview || t.preview.messageId !== messageId || ack == null) return t;
  return { ...t, preview: { ...t.preview, ack: Math.max(t.preview.ack, ack) } };
}

/**
 * One paged ticket list that follows the socket: updates move or drop rows, new messages lift them to the top.
 * `initial` is the first page for `q` rendered by the server; it is used instead of fetching that page again.
 */
export function useTicketList(q: TicketListFilter, viewer: TicketListViewer, enabled = true, initial?: Page | null) {
  const [tickets, setTickets] = useState<Ticket[]>(initial?.tickets ?? []);
  const [count, setCount] = useState(initial?.count ?? 0);
  const [hasMore, setHasMore] = useState(initial?.hasMore ?? false);
  const [loading, setLoading] = useState(enabled && !initial);
  const [failed, setFailed] = useState(false);
  const page = useRef(1);
  const key = JSON.stringify(q);
  const preloaded = useRef(initial ? key : null);
  const query = useRef(q);
  query.current = q;
  const who = useRef(viewer);
  who.current = viewer;
  const shown = useRef(tickets);
  shown.current = tickets;

  const next = useRef<Page["next"]>(undefined);

  const load = useCallback(async (pageNumber: number, signal?: AbortSignal): Promise<void> => {
    const { status, searchParam, showAll, queueIds, tags, snoozed } = query.current;
    // Later pages continue after the oldest ticket shown, which stays right while the socket moves rows around,
    // unless the server said where (a broad search's page may end before the tickets it walked).
    const last = pageNumber > 1 ? shown.current.at(-1) : undefined;
    const after =
      pageNumber > 1 && next.current
        ? next.current
        : { beforeUpdatedAt: last && Date.parse(last.updatedAt), beforeId: last?.id };
    const filters: TicketListQuery = {
      pageNumber,
      showAll,
      status: status || undefined,
      searchParam: searchParam || undefined,
      queueIds: queueIds.length ? queueIds : undefined,
      tags: tags?.length ? tags : undefined,
      snoozed: snoozed || undefined,
      ...after,
    };
    setLoading(true);
    setFailed(false);
    try {
      const res = await callApi("GET /tickets", { query: filters, signal });
      setTickets((prev) => {
        const merged =
          pageNumber === 1 ? res.tickets : [...prev, ...res.tickets.filter((t) => !prev.some((p) => p.id === t.id))];
        return merged;
      });
      setCount(res.count);
      setHasMore(res.hasMore);
      page.current = pageNumber;
      next.current = res.next;
      // A page too short to fill the list could not be scrolled to ask for the next: that one comes at once.
      if (res.hasMore && res.tickets.length < FILL_ROWS && !signal?.aborted) return await load(pageNumber + 1, signal);
    } catch (error) {
      if ((error as Error).name !== "AbortError") {
        setFailed(true);
        throw error;
      }
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }, []);

  useEffect(() => {
    if (!enabled) return;
    if (preloaded.current === key) {
      preloaded.current = null;
      return;
    }
    const ctrl = new AbortController();
    void load(1, ctrl.signal).catch(() => setLoading(false));
    return () => ctrl.abort();
  }, [key, enabled, load]);

  useEffect(() => {
    // The snoozed list holds waiting and open tickets: it follows both statuses' rooms.
    const statuses = q.status ? [q.status] : q.snoozed ? (["pending", "open"] as const) : [];
    if (!enabled || !statuses.length) return;
    const rooms = statuses.map((status) => ({ type: "joinTickets" as const, status }));
    for (const room of rooms) join(room);
    const upsert = (t: Ticket) => {
      setTickets((prev) => {
        const had = prev.some((p) => p.id === t.id);
        if (!matches(t, query.current, who.current)) {
          if (had) setCount((c) => Math.max(0, c - 1));
          return had ? prev.filter((p) => p.id !== t.id) : prev;
        }
        if (!had) setCount((c) => c + 1);
        return [t, ...prev.filter((p) => p.id !== t.id)].sort(byUpdated);
      });
    };
    const offTicket = on("ticket", (p: { action: string; ticket?: Ticket; ticketId?: number } & AckChange) => {
      if (p.action === "update" && p.ticket) upsert(p.ticket);
      else if (p.action === "updateAck") setTickets((prev) => prev.map((t) => withAck(t, p)));
      else if (p.action === "updateUnread" && p.ticketId != null)
        setTickets((prev) => prev.map((t) => (t.id === p.ticketId ? { ...t, unreadMessages: 0 } : t)));
      else if (p.action === "delete" && p.ticketId != null)
        setTickets((prev) => {
          if (!prev.some((t) => t.id === p.ticketId)) return prev;
          setCount((c) => Math.max(0, c - 1));
          return prev.filter((t) => t.id !== p.ticketId);
        });
    });
    const offMessage = on("appMessage", (p: { action: string; ticket?: Ticket }) => {
      if (p.action === "create" && p.ticket) upsert(p.ticket);
    });
    return () => {
      offTicket();
      offMessage();
      for (const room of rooms) leave(room);
    };
  }, [q.status, q.snoozed, enabled]);

  const loadMore = useCallback(() => {
    if (hasMore && !loading) void load(page.current + 1).catch(() => undefined);
  }, [hasMore, loading, load]);

  return { tickets, count, hasMore, loading, failed, loadMore };
}
