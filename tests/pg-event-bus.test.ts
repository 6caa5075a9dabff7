// @engine once
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { migrate } from "drizzle-orm/bun-sql/migrator";
import type { DomainEvent } from "../src/events/catalogue";
import { type PgEventBus, type PgEventBusOptions, startPgEventBus } from "../src/events/pg-bus";
import { decodeTagged, encodeTagged } from "../src/events/wire";
import { PG_MIGRATIONS_DIR } from "../src/paths";
import { hasPostgres, startPostgres } from "./sql-servers";
import { waitFor } from "./wait-for";

if (!hasPostgres)
  console.warn("pg-event-bus tests skipped: PostgreSQL's server binaries (initdb, pg_ctl) are not on PATH");

/** What a bus's log received, by level, and a promise of its first warning. */
function recordingLog() {
  const errors: string[] = [];
  const warnings: string[] = [];
  const { promise: warned, resolve } = Promise.withResolvers<void>();
  const warn = (msg: string) => {
    warnings.push(msg);
    resolve();
  };
  return { errors, warnings, warned, log: { error: (msg: string) => void errors.push(msg), warn } };
}

/** The events a bus's listener heard, and a wait for the n-th one that fails after `ms`. */
function hear(bus: PgEventBus) {
  const events: DomainEvent[] = [];
  let waiting: { count: number; done: () => void } | undefined;
  bus.subscribeAll((event) => {
    events.push(event);
    if (waiting && events.length >= waiting.count) waiting.done();
  });
  const until = (count: number, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      if (events.length >= count) return resolve();
      const deadline = setTimeout(() => reject(new Error(`heard ${events.length} of ${count} events in ${ms} ms`)), ms);
      waiting = {
        count,
        done: () => {
          clearTimeout(deadline);
          resolve();
        },
      };
    });
  return { events, until };
}

/** Fails after `ms` unless `promise` settles first. */
function within<T>(promise: Promise<T>, ms: number, what: string) {
  let deadline: Timer | undefined;
  const late = new Promise<never>((_, reject) => {
    deadline = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(deadline));
}

const tagIds = (events: DomainEvent[]) => events.map((e) => (e.payload as { tagId: number }).tagId);

describe.skipIf(!hasPostgres)("PostgreSQL event bus", () => {
  let server: ReturnType<typeof startPostgres>;
  let admin: SQL;
  let channelCount = 0;
  const open: PgEventBus[] = [];

  beforeAll(async () => {
    server = startPostgres();
    admin = new SQL(server.url);
    await migrate(drizzle({ client: admin }), { migrationsFolder: PG_MIGRATIONS_DIR });
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
  });

  afterAll(async () => {
    await admin?.close();
    server?.stop();
  });

  /** `count` started buses on a channel of their own, so no test hears another's events. */
  async function nodes(count: number, options: Partial<PgEventBusOptions> = {}) {
    const channel = `bus_test_${++channelCount}`;
    const started = await Promise.all(
      Array.from({ length: count }, () => {
        const { log, errors, warnings, warned } = recordingLog();
        return startPgEventBus({ url: server.url, channel, log, ...options }).then((bus) => {
          open.push(bus);
          return Object.assign(bus, { errors, warnings, warned });
        });
      }),
    );
    return started;
  }

  test("an event emitted on one node reaches its own listeners at once and the other node's, each once", async () => {
    const [a, b] = await nodes(2);
    const onA = hear(a!);
    const onB = hear(b!);
    a!.emit("tag.deleted", { tagId: 1 });
    expect(tagIds(onA.events)).toEqual([1]);
    await onB.until(1);
    b!.emit("tag.deleted", { tagId: 2 });
    expect(tagIds(onB.events)).toEqual([1, 2]);
    await onA.until(2);
    a!.emit("tag.deleted", { tagId: 3 });
    await onB.until(3);
    // Each node's own notification arrived before the other node's next one: neither came back.
    expect(tagIds(onA.events)).toEqual([1, 2, 3]);
    expect(tagIds(onB.events)).toEqual([1, 2, 3]);
  });

  test("dates and bytes in a payload arrive as dates and bytes", async () => {
    const [a, b] = await nodes(2);
    const onB = hear(b!);
    const setting = { key: "k", value: "v", createdAt: new Date(1_700_000_000_123), updatedAt: new Date(0) };
    a!.emit("settings.updated", { setting, raw: Buffer.from([0, 1, 255]) } as never);
    await onB.until(1);
    expect(onB.events[0]!.payload).toEqual({ setting, raw: Buffer.from([0, 1, 255]) } as never);
    expect((onB.events[0]!.payload as { setting: { createdAt: Date } }).setting.createdAt).toBeInstanceOf(Date);
  });

  test("an event over 8000 bytes arrives whole, its body passing through event_payloads", async () => {
    const [a, b] = await nodes(2);
    const onB = hear(b!);
    const name = "é".repeat(6000);
    a!.emit("tag.created", { tag: { id: 9, name } as never });
    await onB.until(1);
    expect(onB.events[0]).toEqual({ name: "tag.created", payload: { tag: { id: 9, name } as never } });
    const [row] = await admin<{ count: number }[]>`select count(*)::int as count from event_payloads
      where body like ${`%${name}%`}`;
    expect(row!.count).toBe(1);
  });

  test("stored bodies older than a few minutes are deleted when a later one is written", async () => {
    let now = Date.now();
    const [a, b] = await nodes(2, { now: () => now });
    const onB = hear(b!);
    const big = (id: number) => ({ tag: { id, name: "x".repeat(9000) } as never });
    a!.emit("tag.created", big(1));
    await onB.until(1);
    now += 10 * 60_000;
    a!.emit("tag.created", big(2));
    await onB.until(2);
    await a!.close();
    const rows = await admin<{ body: string }[]>`select body from event_payloads`;
    expect(rows.map((r) => (JSON.parse(r.body) as { payload: { tag: { id: number } } }).payload.tag.id)).toEqual([2]);
  });

  test("50 events, small and large, arrive in the order they were emitted", async () => {
    const [a, b] = await nodes(2);
    const onB = hear(b!);
    for (let i = 0; i < 50; i++)
      if (i % 10 === 5) a!.emit("tag.updated", { tag: { id: i, name: "y".repeat(8500) } as never });
      else a!.emit("tag.deleted", { tagId: i });
    await onB.until(50, 3000);
    const ids = onB.events.map((e) =>
      "tagId" in e.payload ? e.payload.tagId : (e.payload as { tag: { id: number } }).tag.id,
    );
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  test("the events emitted in one turn go out in one notification, in order", async () => {
    const [a, b] = await nodes(2);
    const onB = hear(b!);
    const notices: string[] = [];
    const listening = await admin.listen(`bus_test_${channelCount}`, (text) => void notices.push(text));
    for (let i = 0; i < 20; i++) a!.emit("tag.deleted", { tagId: i });
    await onB.until(20);
    expect(tagIds(onB.events)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // One more, in a later turn: once it is heard, so is every notification sent before it.
    a!.emit("tag.deleted", { tagId: 20 });
    await waitFor(() => notices.some((text) => text.includes('"tagId":20')));
    await listening.unlisten();
    expect(notices).toHaveLength(2);
  });

  test("a closed node hears nothing more, and its own emits still reach its own listeners", async () => {
    const [a, b, c] = await nodes(3);
    const onB = hear(b!);
    const onC = hear(c!);
    await b!.close();
    a!.emit("tag.deleted", { tagId: 1 });
    await onC.until(1);
    expect(onB.events).toEqual([]);
    b!.emit("tag.deleted", { tagId: 2 });
    expect(tagIds(onB.events)).toEqual([2]);
  });

  test("another node's events reach the listeners of every node's events, not those of this node's own", async () => {
    const [a, b] = await nodes(2);
    const own: DomainEvent[] = [];
    b!.subscribe((event) => void own.push(event));
    const onB = hear(b!);
    a!.emit("tag.deleted", { tagId: 6 });
    await onB.until(1);
    b!.emit("tag.deleted", { tagId: 7 });
    expect(tagIds(onB.events)).toEqual([6, 7]);
    expect(tagIds(own)).toEqual([7]);
  });

  test("a listener that throws is logged and the node's other listeners still hear the event", async () => {
    const [a, b] = await nodes(2);
    b!.subscribeAll(() => {
      throw new Error("broken listener");
    });
    const onB = hear(b!);
    a!.emit("tag.deleted", { tagId: 4 });
    await onB.until(1);
    expect(b!.errors).toEqual(["event listener failed"]);
  });

  test("an event that cannot be published is logged, not thrown at the emitter, and later events still go out", async () => {
    const [a, b] = await nodes(2);
    const onA = hear(a!);
    const onB = hear(b!);
    expect(() => a!.emit("tag.deleted", { tagId: 10n } as never)).not.toThrow();
    a!.emit("tag.deleted", { tagId: 11 });
    await onB.until(1);
    expect(tagIds(onB.events)).toEqual([11]);
    expect(onA.events).toHaveLength(2);
    expect(a!.errors).toEqual(["event not published to other nodes"]);
  });

  test("a dropped listening connection is re-established and delivery resumes", async () => {
    const [a, b] = await nodes(2);
    const onB = hear(b!);
    await admin`select pg_terminate_backend(pid) from pg_stat_activity
      where query ilike 'listen%' and pid <> pg_backend_pid()`;
    await within(Promise.all([a!.warned, b!.warned]), 3000, "listening again");
    expect(b!.warnings).toHaveLength(1);
    a!.emit("tag.deleted", { tagId: 5 });
    await onB.until(1);
    expect(tagIds(onB.events)).toEqual([5]);
  });
});

test("a bus that cannot reach its database fails to start instead of waiting", async () => {
  const { log } = recordingLog();
  const unreachable = "postgres://postgres@127.0.0.1:1/postgres";
  await expect(startPgEventBus({ url: unreachable, log })).rejects.toThrow();
});

test("tagged text gives back dates, bytes, what toJSON shows and a key named __proto__ as they were", () => {
  const value = {
    at: new Date(1_700_000_000_123),
    never: new Date(Number.NaN),
    raw: Buffer.from([0, 1, 255]),
    list: [new Date(5), null, "x"],
    shown: { toJSON: () => ({ at: new Date(7) }) },
    notADate: { $date: 1, other: true },
  };
  const { never, ...back } = decodeTagged<Record<string, unknown>>(encodeTagged(value));
  expect(back).toEqual({ ...value, never: undefined, shown: { at: new Date(7) } });
  expect(never).toBeInstanceOf(Date);
  expect((never as Date).getTime()).toBeNaN();
  const own = decodeTagged<Record<string, unknown>>('{"__proto__":{"$date":3}}');
  expect(Object.getPrototypeOf(own)).toBe(Object.prototype);
  expect(Object.getOwnPropertyDescriptor(own, "__proto__")?.value).toEqual(new Date(3));
});
