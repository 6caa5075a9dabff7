import { SQL } from "bun";
import type { Logger } from "../log";
import { KeyedLanes } from "../shared/lanes";
import { type EventBus, type EventListener, LocalEventBus } from "./bus";
import type { DomainEvent, DomainEventName, DomainEvents } from "./catalogue";
import { decodeTagged, encodeTagged } from "./wire";

/** PostgreSQL refuses a notification payload of 8000 bytes or more. */
export const MAX_NOTIFY_BYTES = 7999;
/** How long a large event's body stays in `event_payloads` for the other nodes to read. */
export const PAYLOAD_KEEP_MS = 5 * 60_000;
/** How often, at most, a node deletes the bodies older than that (when it writes a new one). */
const SWEEP_EVERY_MS = 60_000;

export interface PgEventBusOptions {
  /** A postgres:// URL: the database every node shares. */
  url: string;
  /** This node's name on the bus; a random one by default. */
  nodeId?: string;
  log: Pick<Logger, "error" | "warn">;
  /** The clock that dates stored bodies and decides when old ones go. */
  now?: () => number;
  /** The LISTEN/NOTIFY channel the nodes share. */
  channel?: string;
}

/**
 * What one notification says: the events a node emitted since its last notification (as many as fit), or the row
 * of `event_payloads` that holds one too large for a notification. `event` is how a node of an earlier version
 * sends a single one.
 */
type Notice =
  | { from: string; events: DomainEvent[] }
  | { from: string; ref: number }
  | { from: string; event: DomainEvent };

/**
 * The bus of a node among several on one PostgreSQL database. An event is delivered to this node's listeners at
 * once, exactly as on the local bus, and published to the other nodes with NOTIFY, in emit order, where it reaches
 * the listeners of every node's events (`subscribeAll`). The events emitted while a notification is on its way go
 * together in the next one (a group commit announces a whole batch in one turn). A node hears its own
 * notifications too and drops them unread; the others' it delivers in the order they were sent.
 */
export class PgEventBus implements EventBus {
  readonly nodeId: string;
  private readonly sql: SQL;
  private readonly local: LocalEventBus;
  /** Hears this node's events and the other nodes'. */
  private readonly all: LocalEventBus;
  /** Hears the other nodes' events only. */
  private readonly others: LocalEventBus;
  private readonly log: PgEventBusOptions["log"];
  private readonly now: () => number;
  private readonly channel: string;
  /** How this node's notifications of events begin: those are dropped unread when they come back. */
  private readonly ownPrefix: string;
  /** The bytes of a notification of no events: its prefix and `"events":[]}`. */
  private readonly emptyNoticeBytes: number;
  /** Events emitted and not yet published, in emit order. */
  private unpublished: DomainEvent[] = [];
  private subscription?: SQL.ListenSubscription;
  /** Notifications sent ("out") and heard ("in"), each direction one at a time in order. */
  private readonly order = new KeyedLanes<"out" | "in">();
  private lastSweep = Number.NEGATIVE_INFINITY;
  private listens = 0;
  private closed = false;

  constructor(options: PgEventBusOptions) {
    this.nodeId = options.nodeId ?? crypto.randomUUID().slice(0, 8);
    this.sql = new SQL(options.url);
    this.log = options.log;
    this.local = new LocalEventBus(options.log);
    this.all = new LocalEventBus(options.log);
    this.others = new LocalEventBus(options.log);
    this.now = options.now ?? Date.now;
    this.channel = options.channel ?? "zapdesk_events";
    this.ownPrefix = `{"from":${JSON.stringify(this.nodeId)},`;
    this.emptyNoticeBytes = Buffer.byteLength(this.ownPrefix) + '"events":[]}'.length;
  }

  /** Resolves once this node listens to the channel. */
  async start() {
    this.subscription = await this.sql.listen(
      this.channel,
      (text) => this.heard(text),
      () => this.listening(),
    );
  }

  emit<N extends DomainEventName>(name: N, payload: DomainEvents[N]) {
    this.local.emit(name, payload);
    this.all.emit(name, payload);
    if (this.closed) return;
    this.unpublished.push({ name, payload } as DomainEvent);
    if (this.unpublished.length === 1) void this.order.run("out", () => this.publishUnpublished());
  }

  subscribe(listener: EventListener) {
    return this.local.subscribe(listener);
  }

  subscribeAll(listener: EventListener) {
    return this.all.subscribe(listener);
  }

  /** Hears what happened on the other nodes only. */
  subscribeOthers(listener: EventListener) {
    return this.others.subscribe(listener);
  }

  /** Stops listening, waits for the events already emitted to be published, and closes the connections. */
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.subscription?.unlisten().catch((error) => this.log.error("event bus unlisten failed", { error }));
    await this.order.idle();
    await this.sql.close();
  }

  /** Publishes every event emitted so far, in as few notifications as fit them. */
  private async publishUnpublished() {
    const events = this.unpublished;
    this.unpublished = [];
    let bodies: string[] = [];
    let bytes = 0;
    for (const event of events) {
      let body: string;
      try {
        body = encodeTagged(event);
      } catch (error) {
        this.log.error("event not published to other nodes", { event: event.name, error });
        continue;
      }
      const size = Buffer.byteLength(body) + 1; // with the comma before the next one
      if (bodies.length && this.emptyNoticeBytes + bytes + size > MAX_NOTIFY_BYTES) {
        await this.notify(bodies);
        bodies = [];
        bytes = 0;
      }
      if (this.emptyNoticeBytes + size > MAX_NOTIFY_BYTES) await this.notifyStored(body, event.name);
      else {
        bodies.push(body);
        bytes += size;
      }
    }
    if (bodies.length) await this.notify(bodies);
  }

  private async notify(bodies: string[]) {
    const notice = `${this.ownPrefix}"events":[${bodies.join(",")}]}`;
    await this.sql`select pg_notify(${this.channel}, ${notice})`.catch((error) =>
      this.log.error("event not published to other nodes", { events: bodies.length, error }),
    );
  }

  private async notifyStored(body: string, name: DomainEventName) {
    try {
      const now = this.now();
      // One statement: the body is committed when the notification goes out, never after.
      await this.sql`
        with stored as (insert into event_payloads (body, created_at) values (${body}, ${new Date(now)}) returning id)
        select pg_notify(${this.channel}, json_build_object('from', ${this.nodeId}::text, 'ref', id)::text) from stored`;
      await this.sweep(now);
    } catch (error) {
      this.log.error("event not published to other nodes", { event: name, error });
    }
  }

  /** Deletes the bodies every node has had time to read; at most once a minute, after writing a new one. */
  private async sweep(now: number) {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.sql`delete from event_payloads where created_at < ${new Date(now - PAYLOAD_KEEP_MS)}`.catch((error) =>
      this.log.error("old event bodies not deleted", { error }),
    );
  }

  // Called by the driver: whatever goes wrong here is logged, never thrown back into it.
  private heard(text: string) {
    if (text.startsWith(this.ownPrefix)) return;
    void this.order.run("in", () =>
      this.receive(text).catch((error) => this.log.error("event from another node not delivered", { error })),
    );
  }

  private async receive(text: string) {
    const notice = decodeTagged<Notice>(text);
    if (this.closed || notice.from === this.nodeId) return;
    const events =
      "events" in notice ? notice.events : ["event" in notice ? notice.event : await this.stored(notice.ref)];
    for (const event of events) {
      if (!event || this.closed) return;
      this.all.emit(event.name, event.payload as never);
      this.others.emit(event.name, event.payload as never);
    }
  }

  private async stored(id: number): Promise<DomainEvent | undefined> {
    const [row] = await this.sql<{ body: string }[]>`select body from event_payloads where id = ${id}`;
    if (row) return decodeTagged<DomainEvent>(row.body);
    this.log.error("event from another node no longer stored", { id });
    return undefined;
  }

  private listening() {
    if (++this.listens > 1)
      this.log.warn("event bus listening again after its connection dropped: events sent meanwhile were missed", {
        channel: this.channel,
      });
  }
}

/** A started bus: it listens by the time this resolves. */
export async function startPgEventBus(options: PgEventBusOptions): Promise<PgEventBus> {
  const bus = new PgEventBus(options);
  try {
    await bus.start();
  } catch (error) {
    await bus.close();
    throw error;
  }
  return bus;
}
