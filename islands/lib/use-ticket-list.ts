import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api";
import { join, leave, on } from "./socket";
import type { Ticket } from "../../src/shared/contracts";

export interface ListQuery {
  status?: "open" | "pending" | "closed";
  searchParam?: string;
  showAll: boolean;
  queueIds: number[];
  tags?: number[];
}

interface Page {
  tickets: Ticket[];
  count: number;
  hasMore: boolean;
}

function matches(t: Ticket, q: ListQuery, userId: number): boolean {
  if (q.status && t.status !== q.status) return false;
  if (q.queueIds.length && t.queueId != null && !q.queueIds.includes(t.queueId)) return false;
  // The open (assigned) list shows the user's own tickets unless "show all" is on.
  if (q.status === "open" && !q.showAll && t.userId !== userId) return false;
  if (q.tags?.length && !t.tags.some((tag) => q.tags!.includes(tag.id))) return false;
  return true;
}

const byUpdated = (a: Ticket, b: Ticket) => +new Date(b.updatedAt) - +new Date(a.updatedAt);

/** One paged ticket list that follows the socket: updates move or drop rows, new messages lift them to the top. */
export function useTicketList(q: ListQuery, userId: number, enabled = true) {
  const [tickets, setTickets] = useState<Ticket[]>([]);
  const [count, setCount] = useState(0);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(enabled);
  const [failed, setFailed] = useState(false);
  const page = useRef(1);
  const key = JSON.stringify(q);
  const query = useRef(q);
  query.current = q;

  const load = useCallback(async (pageNumber: number, signal?: AbortSignal) => {
    const params = new URLSearchParams({ pageNumber: String(pageNumber), showAll: String(query.current.showAll) });
    if (query.current.status) params.set("status", query.current.status);
    if (query.current.searchParam) params.set("searchParam", query.current.searchParam);
    if (query.current.queueIds.length) params.set("queueIds", JSON.stringify(query.current.queueIds));
    if (query.current.tags?.length) params.set("tags", JSON.stringify(query.current.tags));
    setLoading(true);
    setFailed(false);
    try {
      const res = await api<Page>(`/tickets?${params}`, { signal });
      setTickets((prev) => {
        const merged =
          pageNumber === 1 ? res.tickets : [...prev, ...res.tickets.filter((t) => !prev.some((p) => p.id === t.id))];
        return merged;
      });
      setCount(res.count);
      setHasMore(res.hasMore);
      page.current = pageNumber;
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
    const ctrl = new AbortController();
    void load(1, ctrl.signal).catch(() => setLoading(false));
    return () => ctrl.abort();
  }, [key, enabled, load]);

  useEffect(() => {
    if (!enabled || !q.status) return;
    const room = { type: "joinTickets" as const, status: q.status };
    join(room);
    const upsert = (t: Ticket) => {
      setTickets((prev) => {
        const had = prev.some((p) => p.id === t.id);
        if (!matches(t, query.current, userId)) {
          if (had) setCount((c) => Math.max(0, c - 1));
          return had ? prev.filter((p) => p.id !== t.id) : prev;
        }
        if (!had) setCount((c) => c + 1);
        return [t, ...prev.filter((p) => p.id !== t.id)].sort(byUpdated);
      });
    };
    const offTicket = on("ticket", (p: { action: string; ticket?: Ticket; ticketId?: number }) => {
      if (p.action === "update" && p.ticket) upsert(p.ticket);
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
      leave(room);
    };
  }, [key, enabled, userId]);

  const loadMore = useCallback(() => {
    if (hasMore && !loading) void load(page.current + 1).catch(() => undefined);
  }, [hasMore, loading, load]);

  return { tickets, count, hasMore, loading, failed, loadMore };
}
