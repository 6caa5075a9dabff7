import { areJidsSameUser, type BaileysEventMap, type GroupMetadata, type GroupParticipant } from "baileys";

type ParticipantsUpdate = BaileysEventMap["group-participants.update"];

/**
 * Group metadata for one socket, handed to Baileys as `cachedGroupMetadata` so a send to a group does not query
 * WhatsApp for the member list every time. Filled on first use and from groups.upsert, then kept current from
 * groups.update and group-participants.update; a change it cannot apply drops the group so the next send
 * fetches it again. A new socket starts empty, since changes made while disconnected are never replayed.
 */
export class GroupMetadataCache {
  private groups = new Map<string, GroupMetadata>();
  private pending = new Map<string, Promise<GroupMetadata | undefined>>();

  constructor(private readonly fetch: (jid: string) => Promise<GroupMetadata>) {}

  /** The cached metadata, else fetched once (concurrent callers share the query); undefined if that fails. */
  get(jid: string): Promise<GroupMetadata | undefined> {
    const cached = this.groups.get(jid);
    if (cached) return Promise.resolve(cached);
    let query = this.pending.get(jid);
    if (!query) {
      query = this.fetch(jid)
        .then((meta) => {
          if (this.pending.get(jid) === query) this.groups.set(jid, meta);
          return meta;
        })
        .catch(() => undefined)
        .finally(() => {
          if (this.pending.get(jid) === query) this.pending.delete(jid);
        });
      this.pending.set(jid, query);
    }
    return query;
  }

  has(jid: string) {
    return this.groups.has(jid);
  }

  /** Full metadata (groups.upsert: joined or created groups). */
  upsert(list: GroupMetadata[]) {
    for (const meta of list) this.set(meta.id, meta);
  }

  /** Partial changes (groups.update); a list of participants means the whole metadata was re-read. */
  update(list: Partial<GroupMetadata>[]) {
    for (const change of list) {
      if (!change.id) continue;
      const cached = this.groups.get(change.id);
      if (Array.isArray(change.participants) && change.subject !== undefined)
        this.set(change.id, { ...cached, ...change } as GroupMetadata);
      else if (cached) this.set(change.id, { ...cached, ...stripUndefined(change) });
    }
  }

  participants(event: ParticipantsUpdate) {
    const cached = this.groups.get(event.id);
    if (!cached) return;
    const matches = (p: GroupParticipant, q: GroupParticipant) =>
      [p.id, p.lid, p.phoneNumber].some(
        (a) => !!a && [q.id, q.lid, q.phoneNumber].some((b) => !!b && areJidsSameUser(a, b)),
      );
    const touched = (p: GroupParticipant) => event.participants.some((q) => matches(p, q));
    let participants = cached.participants;
    switch (event.action) {
      case "add":
        participants = [
          ...participants.filter((p) => !touched(p)),
          ...event.participants.map((q) => ({ ...q, admin: null })),
        ];
        break;
      case "remove":
        participants = participants.filter((p) => !touched(p));
        break;
      case "promote":
      case "demote": {
        const admin = event.action === "promote" ? ("admin" as const) : null;
        participants = participants.map((p) => (touched(p) ? { ...p, admin, isAdmin: !!admin } : p));
        break;
      }
      default:
        this.drop(event.id);
        return;
    }
    this.set(event.id, { ...cached, participants, size: participants.length });
  }

  drop(jid: string) {
    this.groups.delete(jid);
    this.pending.delete(jid);
  }

  private set(jid: string, meta: GroupMetadata) {
    // A fetch that started before this change would otherwise overwrite it with older data.
    this.pending.delete(jid);
    this.groups.set(jid, meta);
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
