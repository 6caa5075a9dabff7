import type { BaileysEventMap } from "baileys";
import type { Logger } from "../../log";
import { reportHistory } from "./history";
import type { Inbox } from "./inbox";
import { journalEvents } from "./journal";
import { mapPresence } from "./presence";
import type { Session } from "./session";

/** What a batch of events reaches besides the session itself. */
export interface EventTargets {
  /** False once the session was closed or replaced by a newer socket of its connection. */
  isCurrent(s: Session): boolean;
  /** Saves the session's credentials after the connection's earlier saves. */
  saveCreds(s: Session): Promise<void>;
  onConnection(s: Session, update: BaileysEventMap["connection.update"]): Promise<void>;
  inboxOf(connectionId: number): Inbox;
  /** Runs a history chunk's import after the earlier chunks of the same socket. */
  importHistory(s: Session, job: () => Promise<void>): Promise<void>;
  now(): number;
  log: Logger;
}

/** Calls remembered per socket, to reject one with the caller's own jid. */
const MAX_CALLS = 500;

/**
 * Takes one batch of events inside Baileys' own emit: credentials, connection changes and group caches at
 * once, and everything that becomes or changes a stored message journaled before this returns, then handled by
 * the connection's inbox. Nothing here waits for a message to be handled.
 */
export async function takeEvents(s: Session, events: Partial<BaileysEventMap>, to: EventTargets) {
  const id = s.conn.id;
  try {
    const journaled = journalEvents(events);
    // Received before anything here waits, so the inbox gets batches in the order Baileys emitted them.
    const received = journaled.length ? to.inboxOf(id).receive(journaled) : undefined;
    if (to.isCurrent(s)) {
      if (events["creds.update"]) await to.saveCreds(s);
      const update = events["connection.update"];
      if (update)
        void to
          .onConnection(s, update)
          .catch((error) => to.log.error("baileys connection update failed", { whatsappId: id, error }));
      if (events["groups.upsert"]) s.groups.upsert(events["groups.upsert"]);
      if (events["groups.update"]) s.groups.update(events["groups.update"]);
      if (events["group-participants.update"]) s.groups.participants(events["group-participants.update"]);
    }
    const presence = events["presence.update"];
    if (presence && to.isCurrent(s))
      for (const p of mapPresence(presence))
        void s.sink
          .onPresence(id, p)
          .catch((error) => to.log.warn("baileys presence not reported", { whatsappId: id, error }));
    for (const c of events.call ?? []) {
      s.calls.set(c.id, c.from);
      if (s.calls.size > MAX_CALLS) s.calls.delete(s.calls.keys().next().value!);
    }
    const history = events["messaging-history.set"];
    if (history && to.isCurrent(s)) {
      const at = to.now();
      // Not awaited: an import must not hold up live messages.
      void to
        .importHistory(s, () => reportHistory(s, history, at))
        .catch((error) => to.log.error("history import failed", { whatsappId: id, error }));
    }
    // Events of an older socket of the connection were received all the same: they are kept too.
    await received;
  } catch (error) {
    to.log.error("baileys events not taken", { whatsappId: id, error });
  }
}
