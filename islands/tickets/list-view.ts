/**
 * What the ticket list shows (tab, sub-tab, search text), kept in the page's query so a reload or a shared link
 * shows the same list: `?tab=closed`, `?sub=pending`, `?sub=snoozed`, `?tab=search&q=ana`. The defaults leave the query
 * empty. Without a sub-tab in the query the list lands on In service, or on Waiting while nothing is in service and
 * someone waits (a new installation's first ticket waits there); the query then names In service when it is chosen.
 */

export type Tab = "open" | "closed" | "search";
export type SubTab = "open" | "pending" | "snoozed";

export interface ListView {
  tab: Tab;
  sub: SubTab;
  search: string;
}

export const DEFAULT_VIEW: ListView = { tab: "open", sub: "open", search: "" };

const TABS: Tab[] = ["open", "closed", "search"];
const SUB_TABS: SubTab[] = ["open", "pending", "snoozed"];
/** Longer text is cut, as the list's search parameter allows no more. */
const MAX_SEARCH = 200;

/** The sub-tab the list opens on when the query names none: Waiting while nothing is in service and someone waits. */
export function landingSub(counts: { open: number; pending: number }): SubTab {
  return counts.open === 0 && counts.pending > 0 ? "pending" : DEFAULT_VIEW.sub;
}

/** The view a query names; unknown values fall back to the defaults (the sub-tab to `landing`). */
export function parseListView(query: URLSearchParams, landing: SubTab = DEFAULT_VIEW.sub): ListView {
  const tab = query.get("tab") as Tab | null;
  const sub = query.get("sub") as SubTab | null;
  return {
    tab: tab && TABS.includes(tab) ? tab : DEFAULT_VIEW.tab,
    sub: sub && SUB_TABS.includes(sub) ? sub : landing,
    search: (query.get("q") ?? "").slice(0, MAX_SEARCH),
  };
}

/** The query for a view (`""` for the defaults); other parameters already in `query` are kept. */
export function listViewQuery(
  view: ListView,
  query = new URLSearchParams(),
  landing: SubTab = DEFAULT_VIEW.sub,
): string {
  const next = new URLSearchParams(query);
  for (const key of ["tab", "sub", "q"]) next.delete(key);
  if (view.tab !== DEFAULT_VIEW.tab) next.set("tab", view.tab);
  if (view.tab === "open" && view.sub !== landing) next.set("sub", view.sub);
  if (view.tab === "search" && view.search) next.set("q", view.search);
  const text = next.toString();
  return text ? `?${text}` : "";
}

/** Writes the view into the current address without a new history entry. */
export function keepListViewInUrl(view: ListView, landing: SubTab) {
  const query = listViewQuery(view, new URLSearchParams(location.search), landing);
  if (query === location.search) return;
  history.replaceState(history.state, "", location.pathname + query + location.hash);
}

/** The tab and sub-tab that list a ticket of this status. */
export function listPlaceOf(ticket: { status: "open" | "pending" | "closed"; snoozedUntil: string | null }) {
  if (ticket.status === "closed") return { tab: "closed" as const, sub: null };
  const sub: SubTab = ticket.snoozedUntil ? "snoozed" : ticket.status === "pending" ? "pending" : "open";
  return { tab: "open" as const, sub };
}
