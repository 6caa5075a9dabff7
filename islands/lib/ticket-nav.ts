import { useSyncExternalStore } from "react";

/**
 * Which ticket the tickets page shows, shared by its list and chat islands. On that page opening a ticket is a
 * history entry (`/tickets/{id}`, the query kept) and the chat switches in place, so the list keeps its tab,
 * filters and scroll; back and forward switch it again. Anywhere else opening a ticket loads its page.
 */

const TICKET_PATH = /^\/tickets(?:\/(\d{1,15}))?\/?$/;

/** The ticket a path names: a number for `/tickets/{id}`, null for `/tickets` (and for anything else). */
export function ticketIdOfPath(path: string): number | null {
  const id = TICKET_PATH.exec(path)?.[1];
  return id ? Number(id) : null;
}

const listeners = new Set<() => void>();
let current: number | null = typeof location === "undefined" ? null : ticketIdOfPath(location.pathname);

function set(id: number | null) {
  if (id === current) return;
  current = id;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether this page is the tickets page, which switches tickets in place. */
function onTicketsPage() {
  return TICKET_PATH.test(location.pathname) && document.querySelector(".tickets-page") != null;
}

if (typeof window !== "undefined")
  window.addEventListener("popstate", () => {
    if (TICKET_PATH.test(location.pathname)) set(ticketIdOfPath(location.pathname));
  });

/** Opens a ticket (null: none, the welcome note): in place on the tickets page, else by loading its page. */
export function openTicket(id: number | null) {
  const path = id == null ? "/tickets" : `/tickets/${id}`;
  if (!onTicketsPage()) {
    location.assign(path);
    return;
  }
  if (id !== current) history.pushState(null, "", path + location.search);
  set(id);
}

/** The ticket open on the tickets page; `rendered` is the one the server rendered, used until hydration is done. */
export function useOpenTicket(rendered: number | null): number | null {
  return useSyncExternalStore(
    subscribe,
    () => current,
    () => rendered,
  );
}

/**
 * On the tickets page, a plain click on any link to a ticket (or to `/tickets`) opens it in place: the rows, the
 * chat's back arrow, the bell's list; not a link within the page (`#…`, the skip link). Returns the function that stops it.
 */
export function openTicketLinksInPlace() {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || !isPlainClick(e)) return;
    const link = (e.target as Element | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
    if (!link || link.target || link.hasAttribute("download") || link.origin !== location.origin) return;
    if (!TICKET_PATH.test(link.pathname) || link.search || link.hash) return;
    e.preventDefault();
    openTicket(ticketIdOfPath(link.pathname));
  };
  document.addEventListener("click", onClick);
  return () => document.removeEventListener("click", onClick);
}

/** Whether a click on a link should be left to the browser (a new tab or window, a download). */
export function isPlainClick(e: {
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}) {
  return e.button === 0 && !e.metaKey && !e.ctrlKey && !e.shiftKey && !e.altKey;
}

/**
 * Shows the chat pane or the list's welcome side: the page's `has-chat`/`no-chat` (which pane a phone shows) and
 * the pane's `welcome` look, which the server set for the ticket it rendered.
 */
export function showChatPane(hasChat: boolean) {
  const page = document.querySelector(".tickets-page");
  page?.classList.toggle("has-chat", hasChat);
  page?.classList.toggle("no-chat", !hasChat);
  page?.querySelector(".chat-pane")?.classList.toggle("welcome", !hasChat);
}

type Placed = { status: "open" | "pending" | "closed"; snoozedUntil: string | null };
const followers = new Set<(ticket: Placed) => void>();

/** A ticket changed list (accepted, reopened, its resolve undone): the ticket list shows the tab it is in now. */
export function showTicketInList(ticket: Placed) {
  for (const follow of followers) follow(ticket);
}

/** Hears `showTicketInList`; returns the function that stops. */
export function onShowTicketInList(follow: (ticket: Placed) => void) {
  followers.add(follow);
  return () => {
    followers.delete(follow);
  };
}
