import { type Contact, isPnUser } from "baileys";
import type { JournalEvent } from "./journal";

/** Contacts whose last news is remembered; the oldest is forgotten first. */
const REMEMBERED = 5000;

/**
 * Baileys reports the sender's push name as contact news with every message it receives. The last news of each
 * phone-number contact is remembered, so news that only repeats it is neither journaled nor handled again: it
 * would write the same phone book row (an idempotent upsert) once more. News about a LID is always kept, since
 * what it resolves to may change, and a LID mapping forgets everything remembered.
 */
export class ContactRepeats {
  private readonly last = new Map<string, string>();

  /** The events without the contact entries that repeat their contact's last news; remembers the others. */
  drop(events: JournalEvent[]): JournalEvent[] {
    const out: JournalEvent[] = [];
    for (const event of events) {
      if (event.kind === "lid-mapping") this.last.clear();
      if (event.kind !== "contacts") {
        out.push(event);
        continue;
      }
      const contacts = event.contacts.filter((c) => this.isNews(c));
      if (contacts.length) out.push({ kind: "contacts", contacts });
    }
    return out;
  }

  /** News that was not handled is news again when it repeats. */
  forget(event: JournalEvent) {
    if (event.kind !== "contacts") return;
    for (const c of event.contacts) if (c.id && this.last.get(c.id) === JSON.stringify(c)) this.last.delete(c.id);
  }

  private isNews(c: Partial<Contact>): boolean {
    if (!c.id || !isPnUser(c.id)) return true;
    const said = JSON.stringify(c);
    if (this.last.get(c.id) === said) return false;
    this.last.delete(c.id);
    this.last.set(c.id, said);
    if (this.last.size > REMEMBERED) this.last.delete(this.last.keys().next().value!);
    return true;
  }
}
