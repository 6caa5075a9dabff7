/**
 * P7, the WhatsApp path: the app's wiring (manager, inbound pipeline, real Baileys driver) on a file database,
 * paired with the local fake WhatsApp server the driver tests use, run in a process of its own so the CPU figure is
 * the app's. Texts from 40 new contacts (10 each), then from one contact, are delivered at once; each message's time
 * from its journal write to its `message.created` event (after its commit), and the messages per second from the
 * first delivery to the last one stored.
 * `bun bench/baileys-path.ts` runs it on a temp directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { InboundJournal } from "../src/channels/baileys/journal";
import { composeDeps } from "../src/compose";
import { closeDatabase, first, one, sqliteClient } from "../src/db/client";
import { connections } from "../src/db/tables";
import { createLogger } from "../src/log";
import { RecordingHub } from "../src/realtime/hub";
import { systemClock } from "../src/shared/clock";
import { testConfig } from "../tests/helpers";
import { trustFakeRoot } from "../tests/channels/fakewa/server";
import { waitFor } from "../tests/wait-for";
import { type Figure, quantile } from "./figure";
import { cpuSince, printFigures } from "./ingest";

const P95_TARGET_MS = 100;
const RATE_TARGET = 1_000;
const LOGIN_SETTLE_MS = 200;

export interface PathRun {
  stored: number;
  p95Ms: number;
  maxMs: number;
  rate: number;
  cpuUs: number;
  /** CPU of the main thread alone per message (the process figure adds the JIT compiler's and the collector's). */
  mainCpuUs: number;
  /** The longest time the event loop did not reach its `setImmediate` callbacks while the texts came in. */
  stallMs: number;
  /** Journal rows written per message (contact news included). */
  journalRows: number;
}

export async function measureBaileysPath(): Promise<Figure[]> {
  // First the process's first burst (its code not compiled yet), then a server that has already stored a burst,
  // as one does after its first minutes: the rate's target is judged on the latter.
  const cold = await pathRun(40, 10);
  const contacts = await pathRun(40, 10, { warmUp: true });
  const one = await pathRun(1, 500);
  return [
    {
      id: "P7",
      what: `Baileys path, 400 texts from 40 new contacts: journal → stored p95 (max ${contacts.maxMs.toFixed(0)} ms; ${contacts.stored} stored)`,
      value: contacts.p95Ms,
      unit: "ms",
      target: `p95 ≤ ${P95_TARGET_MS}`,
      met: contacts.stored === 400 && contacts.p95Ms <= P95_TARGET_MS,
    },
    {
      id: "P7",
      what: `Baileys path, 400 texts from 40 new contacts (${contacts.cpuUs.toFixed(0)} µs CPU, ${contacts.mainCpuUs.toFixed(0)} on the main thread, and ${contacts.journalRows.toFixed(1)} journal rows per message; longest event-loop stall ${contacts.stallMs.toFixed(0)} ms)`,
      value: contacts.rate,
      unit: "msg/s",
      target: `≥ ${RATE_TARGET}`,
      met: contacts.stored === 400 && contacts.rate >= RATE_TARGET,
    },
    {
      id: "P7",
      what: `Baileys path, the same 400 texts as the process's first burst (${cold.cpuUs.toFixed(0)} µs CPU, ${cold.mainCpuUs.toFixed(0)} on the main thread; journal → stored p95 ${cold.p95Ms.toFixed(1)} ms, ${cold.stored} stored)`,
      value: cold.rate,
      unit: "msg/s",
      target: `p95 ≤ ${P95_TARGET_MS}`,
      met: cold.stored === 400 && cold.p95Ms <= P95_TARGET_MS,
    },
    {
      id: "P7",
      what: `Baileys path, 500 texts from one contact: journal → stored p95 (max ${one.maxMs.toFixed(0)} ms; ${one.rate.toFixed(0)} msg/s at ${one.cpuUs.toFixed(0)} µs CPU, ${one.mainCpuUs.toFixed(0)} on the main thread; longest event-loop stall ${one.stallMs.toFixed(0)} ms)`,
      value: one.p95Ms,
      unit: "ms",
      target: `p95 ≤ ${P95_TARGET_MS}`,
      met: one.stored === 500 && one.p95Ms <= P95_TARGET_MS,
    },
  ];
}

/** Journal writes by message id: when each message was first journaled (receipt hold or batch). */
function watchJournal() {
  const journaledAt = new Map<string, number>();
  const write = InboundJournal.prototype.write;
  InboundJournal.prototype.write = async function (this: InboundJournal, ...args) {
    const rows = await write.apply(this, args);
    const at = performance.now();
    for (const { event } of rows) {
      const id = event.kind === "upsert" ? event.message.key.id : undefined;
      if (id && !journaledAt.has(id)) journaledAt.set(id, at);
    }
    return rows;
  };
  return { journaledAt, restore: () => void (InboundJournal.prototype.write = write) };
}

/**
 * Follows the event loop's turns until `stop`, which answers the longest time a timer due every millisecond was
 * late. A timer, not a chain of `setImmediate`: such a chain never lets the loop sleep, so it would spend the idle
 * time as CPU and count it in the CPU per message.
 */
function watchLoop() {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last - 1);
    last = now;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last - 1);
    },
  };
}

/**
 * `contacts` new contacts each send `each` texts at once, interleaved; returns what it took to store them. With
 * `warmUp`, as many other new contacts first send as many texts, and the server has stored them before the measured
 * burst comes.
 */
export async function pathRun(contacts: number, each: number, { warmUp = false } = {}): Promise<PathRun> {
  const total = contacts * each;
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-bench-wapath-"));
  const fake = await startFake();
  const journal = watchJournal();
  const { db, deps, channels } = await composeDeps({
    config: testConfig({ databasePath: join(dir, "zapdesk.sqlite"), mediaDir: dir, dataDir: dir }),
    hub: new RecordingHub(),
    log: createLogger(process.env.FAKEWA_LOG ? "debug" : "silent"),
    clock: systemClock,
    singleNode: true,
    baileys: {
      waWebSocketUrl: fake.url,
      fetchLatestVersion: false,
      // The fake sends no history: skip the 20 s initial-sync wait.
      socketConfig: { shouldSyncHistoryMessage: () => false },
    },
  });
  try {
    const conn = await one(db.insert(connections).values({ name: "Path", provider: "baileys" }).returning());
    const row = async () => (await first(db.select().from(connections).where(eq(connections.id, conn.id))))!;
    await channels.start(conn.id);
    await fake.command({
      op: "scan",
      qr: await waitFor(async () => (await row()).status === "qrcode" && (await row()).qrcode),
    });
    await waitFor(async () => (await row()).status === "CONNECTED");
    // Past the fake's login backlog: a message delivered before it would be delivered twice.
    await Bun.sleep(LOGIN_SETTLE_MS);

    const storedAt = new Map<string, number>();
    deps.events.subscribe((event) => {
      if (event.name === "message.created" && event.payload.message.wid)
        storedAt.set(event.payload.message.wid, performance.now());
    });
    if (warmUp) {
      await fake.command({ op: "burst", contacts, each, prefix: "W7", firstContact: contacts });
      await waitFor(() => storedAt.size >= total, 60_000);
      storedAt.clear();
      journal.journaledAt.clear();
    }
    const journalSeq = () =>
      (
        sqliteClient(db).query("SELECT seq FROM sqlite_sequence WHERE name = 'inbound_journal'").get() as {
          seq: number;
        } | null
      )?.seq ?? 0;
    const journalBefore = journalSeq();
    const loop = watchLoop();
    const cpu = process.cpuUsage();
    const thread = process.threadCpuUsage();
    const start = performance.now();
    await fake.command({ op: "burst", contacts, each, prefix: "P7" });
    await waitFor(() => storedAt.size >= total, 60_000).catch(() => undefined);
    const stallMs = loop.stop();
    const threadCpu = process.threadCpuUsage(thread);
    const journalRows = journalSeq() - journalBefore;
    const seconds = (Math.max(...storedAt.values()) - start) / 1000;
    const latencies = [...storedAt].map(([id, at]) => at - (journal.journaledAt.get(id) ?? start));
    return {
      stored: storedAt.size,
      p95Ms: quantile(latencies, 0.95),
      maxMs: Math.max(...latencies),
      rate: storedAt.size / seconds,
      cpuUs: cpuSince(cpu) / total,
      mainCpuUs: (threadCpu.user + threadCpu.system) / total,
      stallMs,
      journalRows: journalRows / total,
    };
  } finally {
    journal.restore();
    await channels.stopAll();
    fake.stop();
    await closeDatabase(db);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The fake WhatsApp server in a child process (tests/channels/fakewa/server-process.ts), trusted by this one; `root`
 * is its root key, for another process to trust it (WA_CERT_ROOT).
 */
export async function startFake() {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "../tests/channels/fakewa/server-process.ts")], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const lines = readLines(child.stdout);
  const { url, root } = JSON.parse((await lines.next()).value as string) as { url: string; root: string };
  trustFakeRoot(root);
  return {
    url,
    root,
    async command(command: object) {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      await child.stdin.flush();
      await lines.next();
    },
    stop() {
      child.stdin.end();
      child.kill();
    },
  };
}

async function* readLines(stream: ReadableStream<Uint8Array>) {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf("\n");
    while (end >= 0) {
      yield buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      end = buffered.indexOf("\n");
    }
  }
}

if (import.meta.main) {
  printFigures(await measureBaileysPath());
  process.exit(0);
}
