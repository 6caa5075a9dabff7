import { signal } from "@preact/signals-react";
import { callApi } from "./api";

/**
 * The signed-in user's unsent replies, by ticket, kept on the server (`/tickets/:id/draft`). The composer saves
 * its text here half a second after the last keystroke, and at once when its chat closes or the page goes away;
 * the ticket list shows them ("Draft: …").
 */
export const drafts = signal<ReadonlyMap<number, string>>(new Map());

const SAVE_AFTER_MS = 500;
/** Texts not saved yet, by ticket, with the timer that will save them. */
const unsaved = new Map<number, { body: string; timer: ReturnType<typeof setTimeout> }>();
let loading: Promise<void> | null = null;
let loaded = false;

/** Loads the user's drafts once per page; texts typed meanwhile win over what the server had. */
export function loadDrafts(): Promise<void> {
  loading ??= callApi("GET /tickets/drafts").then(
    (list) => {
      const next = new Map(list.map((d) => [d.ticketId, d.body]));
      for (const [ticketId, { body }] of unsaved) setIn(next, ticketId, body);
      drafts.value = next;
      loaded = true;
    },
    () => {
      loading = null;
    },
  );
  return loading;
}

/** The ticket's draft: from the list when it was loaded, else asked for. */
export async function draftOf(ticketId: number): Promise<string> {
  if (loaded) return drafts.value.get(ticketId) ?? "";
  const { body } = await callApi("GET /tickets/:id/draft", { params: { id: ticketId } });
  return body;
}

/** The composer's text changed: saved after a pause in the typing (a blank text deletes the draft). */
export function keepDraft(ticketId: number, body: string) {
  const pending = unsaved.get(ticketId);
  if (pending) clearTimeout(pending.timer);
  unsaved.set(ticketId, { body, timer: setTimeout(() => save(ticketId), SAVE_AFTER_MS) });
}

/** Saves the ticket's text at once if it waits (its chat closes). */
export function saveDraftNow(ticketId: number) {
  if (unsaved.has(ticketId)) save(ticketId, true);
}

/** The draft went out as a message: the server removed it with the send, so nothing is saved. */
export function sentDraft(ticketId: number) {
  const pending = unsaved.get(ticketId);
  if (pending) clearTimeout(pending.timer);
  unsaved.delete(ticketId);
  show(ticketId, "");
}

if (typeof window !== "undefined")
  window.addEventListener("pagehide", () => {
    for (const ticketId of [...unsaved.keys()]) save(ticketId, true);
  });

function save(ticketId: number, keepalive = false) {
  const pending = unsaved.get(ticketId);
  if (!pending) return;
  clearTimeout(pending.timer);
  unsaved.delete(ticketId);
  show(ticketId, pending.body);
  const params = { id: ticketId };
  const done = pending.body.trim()
    ? callApi("PUT /tickets/:id/draft", { params, body: { body: pending.body }, keepalive })
    : callApi("DELETE /tickets/:id/draft", { params, keepalive });
  // A draft that could not be saved stays in the composer while the chat is open; nothing else to tell.
  done.catch(() => undefined);
}

function show(ticketId: number, body: string) {
  if ((drafts.value.get(ticketId) ?? "") === body.trim()) return;
  const next = new Map(drafts.value);
  setIn(next, ticketId, body);
  drafts.value = next;
}

function setIn(map: Map<number, string>, ticketId: number, body: string) {
  if (body.trim()) map.set(ticketId, body.trim());
  else map.delete(ticketId);
}
