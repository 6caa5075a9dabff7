import { useEffect, useState, type UIEvent } from "react";
import { NewTicketDialog } from "./agent/NewTicketDialog";
import { api, callApi } from "./lib/api";
import { getBoot } from "./lib/boot";
import { loadDrafts } from "./lib/drafts";
import { errorText } from "./lib/errors";
import { Checkbox } from "./lib/form";
import { useT } from "./lib/i18n-context";
import { SearchBox } from "./lib/list-ui";
import { usePageVisible } from "./lib/page-visible";
import { onShowTicketInList, openTicket, openTicketLinksInPlace, useOpenTicket } from "./lib/ticket-nav";
import { on } from "./lib/socket";
import { toast } from "./lib/toast";
import type { QueueOption, Ticket } from "../src/shared/contracts";
import { TICKET_COUNT_CAP } from "../src/shared/contracts/tickets";
import { type TicketListFilter, type Page, useTicketList } from "./lib/use-ticket-list";
import {
  DEFAULT_VIEW,
  keepListViewInUrl,
  type ListView,
  listPlaceOf,
  type SubTab,
  type Tab,
} from "./tickets/list-view";
import { QueueSelect } from "./tickets/QueueSelect";
import { TicketRow } from "./tickets/TicketRow";
import { useAltArrows } from "./tickets/use-alt-arrows";

interface Props {
  userId: number;
  canShowAll: boolean;
  queues: QueueOption[];
  /** The ticket the server rendered in the chat pane; the list then follows the one opened in place. */
  selectedId: number | null;
  /** The tab, sub-tab and search text the address asked for. */
  view?: ListView;
  /** The sub-tab the list shows when the address names none (see list-view.ts). */
  landing?: SubTab;
  /** The first page of the assigned and pending lists (the tab shown first), rendered by the server. */
  initial?: { open: Page; pending: Page } | null;
}

const SEARCH_DEBOUNCE_MS = 500;
const SCROLL_MARGIN_PX = 100;

/**
 * The /tickets list: tabs open/closed/search, assigned/pending sub-tabs with counts, filters, live rows. A row
 * opens its ticket in place, so the tab, filters and search stay; the tab, sub-tab and search live in the address.
 */
export default function TicketsManager({
  userId,
  canShowAll,
  queues,
  selectedId: renderedId,
  view = DEFAULT_VIEW,
  landing = DEFAULT_VIEW.sub,
  initial,
}: Props) {
  const t = useT();
  const selectedId = useOpenTicket(renderedId);
  const reading = usePageVisible();
  const [tab, setTab] = useState<Tab>(view.tab);
  const [sub, setSub] = useState<SubTab>(view.sub);
  const [showAll, setShowAll] = useState(canShowAll);
  const [queueIds, setQueueIds] = useState<number[]>(queues.map((q) => q.id));
  const [search, setSearch] = useState(view.search);
  const [settledSearch, setSettledSearch] = useState(view.search);
  const searchParam = settledSearch.trim().toLowerCase();
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [tags, setTags] = useState<QueueOption[] | null>(null);
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    const id = setTimeout(() => setSettledSearch(search), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [search]);

  // Also after back or forward, whose address may carry the view of an earlier moment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new open ticket means a new address to write into
  useEffect(
    () => keepListViewInUrl({ tab, sub, search: settledSearch }, landing),
    [tab, sub, settledSearch, selectedId, landing],
  );
  useEffect(openTicketLinksInPlace, []);
  useEffect(() => void loadDrafts(), []);
  // Accepted or reopened in the chat, a ticket changes list: show the one it is in now.
  useEffect(
    () =>
      onShowTicketInList((ticket) => {
        const place = listPlaceOf(ticket);
        setTab(place.tab);
        if (place.sub) setSub(place.sub);
      }),
    [],
  );
  // A snoozed ticket of this agent's came back (its time came, or the customer wrote).
  useEffect(
    () =>
      on("ticketWoken", ({ ticket }) =>
        toast("info", t("chat.snooze.woken", { id: ticket.id, name: ticket.contact?.name ?? "" })),
      ),
    [t],
  );

  const base = { showAll, queueIds };
  // The profile is read when socket events arrive, in the browser only; the list's own queues are the agent's.
  const viewer = { id: userId, profile: getBoot()?.user?.profile ?? "user", queueIds: queues.map((q) => q.id) };
  const open = useTicketList({ ...base, status: "open" }, viewer, tab === "open", initial?.open);
  const pending = useTicketList({ ...base, status: "pending" }, viewer, tab === "open", initial?.pending);
  const closed = useTicketList({ ...base, status: "closed" }, viewer, tab === "closed");
  // Snoozed tickets of every status, fetched afresh each time the sub-tab is shown, then followed live.
  const snoozed = useTicketList({ ...base, snoozed: true }, viewer, tab === "open" && sub === "snoozed");
  const searchQuery: TicketListFilter = { showAll: true, queueIds, searchParam, tags: tagIds };
  const found = useTicketList(searchQuery, viewer, tab === "search" && (searchParam.length > 0 || tagIds.length > 0));

  useEffect(() => {
    if (tab !== "search" || tags) return;
    api<QueueOption[]>("/tags/list").then(setTags, () => setTags([]));
  }, [tab, tags]);
  const inService = { open, pending, snoozed }[sub];
  const current = tab === "open" ? inService : tab === "closed" ? closed : found;
  useAltArrows(
    current.tickets.map((ticket) => ticket.id),
    selectedId,
  );

  function onScroll(e: UIEvent<HTMLUListElement>) {
    const el = e.currentTarget;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < SCROLL_MARGIN_PX) current.loadMore();
  }

  async function accept(ticket: Ticket) {
    try {
      await callApi("PUT /tickets/:id", { params: { id: ticket.id }, body: { status: "open", userId } });
      // Accepted, it moves to the assigned list: show that list, where it is selected.
      setTab("open");
      setSub("open");
      openTicket(ticket.id);
    } catch (error) {
      toast("error", errorText(t, error));
    }
  }

  const tabButton = (value: Tab, label: string) => (
    <button type="button" role="tab" aria-selected={tab === value} className="tab" onClick={() => setTab(value)}>
      {label}
    </button>
  );
  const subButton = (value: SubTab, label: string, count: number) => (
    <button type="button" role="tab" aria-selected={sub === value} className="tab sub" onClick={() => setSub(value)}>
      {label}
      {count > 0 && <span className="count">{count >= TICKET_COUNT_CAP ? `${TICKET_COUNT_CAP}+` : count}</span>}
    </button>
  );

  return (
    <div className="tickets-manager">
      <div className="tabs" role="tablist" aria-label={t("tickets.title")}>
        {tabButton("open", t("tickets.tabs.open"))}
        {tabButton("closed", t("tickets.tabs.closed"))}
        {tabButton("search", t("tickets.tabs.search"))}
      </div>
      {creating && <NewTicketDialog userId={userId} onClose={() => setCreating(false)} />}
      <div className="filters">
        <button type="button" className="button primary small" onClick={() => setCreating(true)}>
          {t("agent.newTicket.open")}
        </button>
        {tab === "search" ? (
          <SearchBox label={t("tickets.search")} value={search} onChange={setSearch} />
        ) : (
          canShowAll && <Checkbox label={t("tickets.showAll")} checked={showAll} onChange={setShowAll} />
        )}
        {tab === "search" && tags && tags.length > 0 && (
          <QueueSelect
            queues={tags}
            value={tagIds}
            onChange={setTagIds}
            label={t("agent.tags.filter", { n: tagIds.length })}
          />
        )}
        {queues.length > 0 && <QueueSelect queues={queues} value={queueIds} onChange={setQueueIds} />}
      </div>
      {tab === "open" && (
        <div className="tabs sub-tabs" role="tablist">
          {subButton("open", t("tickets.tabs.assigned"), open.count)}
          {subButton("pending", t("tickets.tabs.pending"), pending.count)}
          {subButton("snoozed", t("tickets.tabs.snoozed"), sub === "snoozed" ? snoozed.count : 0)}
        </div>
      )}
      <ul className="ticket-list" onScroll={onScroll} aria-busy={current.loading}>
        {current.tickets.map((ticket) => (
          <TicketRow
            key={ticket.id}
            // The ticket on screen is read as its messages arrive: its badge would only flash until the read lands.
            ticket={reading && ticket.id === selectedId ? { ...ticket, unreadMessages: 0 } : ticket}
            selected={ticket.id === selectedId}
            onAccept={accept}
            search={tab === "search" ? searchParam : undefined}
          />
        ))}
        {current.failed && <li className="list-empty">{t("errors.generic")}</li>}
        {!current.loading && !current.failed && current.tickets.length === 0 && (
          <li className="list-empty">
            {tab === "search" && !searchParam && tagIds.length === 0 ? t("tickets.searchHint") : t("tickets.empty")}
          </li>
        )}
        {current.loading && <li className="list-empty">{t("app.loading")}</li>}
      </ul>
    </div>
  );
}
