import { useCallback, useEffect, useRef, useState } from "react";
import type { Message, TicketEvent } from "../../src/shared/contracts";
import { callApi } from "../lib/api";
import { errorText } from "../lib/errors";
import { useT } from "../lib/i18n-context";
import { on } from "../lib/socket";
import { toast } from "../lib/toast";

const byTime = (a: TicketEvent, b: TicketEvent) => +new Date(a.at) - +new Date(b.at) || a.id - b.id;

/**
 * The ticket's history over the span of the messages loaded: each page of messages brings the events from its
 * oldest message up to where the previous page began (the last page, every older event), and the chat room
 * (joined by the chat) adds new ones as they happen.
 */
export function useTicketEvents(ticketId: number) {
  const t = useT();
  const [events, setEvents] = useState<TicketEvent[]>([]);
  /** Where the loaded span begins: undefined before the first page, null once it reaches the ticket's start. */
  const spanStart = useRef<string | null | undefined>(undefined);

  const merge = useCallback((incoming: TicketEvent[]) => {
    setEvents((prev) => {
      const byId = new Map(prev.map((e) => [e.id, e]));
      for (const e of incoming) byId.set(e.id, e);
      return [...byId.values()].sort(byTime);
    });
  }, []);

  useEffect(
    () =>
      on("ticketEvent", ({ event }) => {
        if (event.ticketId === ticketId) merge([event]);
      }),
    [ticketId, merge],
  );

  /** Loads the events of the span a page of messages (oldest first) adds to the history. */
  const loadEventsOf = useCallback(
    (page: { messages: Message[]; hasMore: boolean }) => {
      if (spanStart.current === null) return;
      const to = spanStart.current;
      const from = page.hasMore ? (page.messages[0]?.createdAt ?? null) : null;
      spanStart.current = from;
      loadSpan(ticketId, from, to, merge).catch((error) => toast("error", errorText(t, error)));
    },
    [ticketId, merge, t],
  );

  return { events, loadEventsOf };
}

/** Every page of the ticket's events from `from` (inclusive) to `to` (exclusive); null leaves that end open. */
async function loadSpan(
  ticketId: number,
  from: string | null,
  to: string | null | undefined,
  merge: (events: TicketEvent[]) => void,
) {
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await callApi("GET /tickets/:id/events", {
      params: { id: ticketId },
      query: { pageNumber, from: from ?? undefined, to: to ?? undefined },
    });
    merge(page.events);
    if (!page.hasMore) return;
  }
}
