import { sqliteClient } from "../src/db/client";
/**
 * M2, realtime fan-out: one inbound message reaches 500 connected agent sockets (each following the pending
 * list, the notifications and the ticket's chat). Measures, for every socket and message, the time from the
 * message's commit (its `message.created` event) to the socket receiving its frame. The sockets live in a worker
 * thread of the same process. `bun bench/fanout.ts` runs it on a temp directory.
 */
import { users } from "../src/db/tables";
import type { NormalizedMessage } from "../src/channels/types";
import type { DomainEvents } from "../src/events/catalogue";
import { createTokens } from "../src/modules/auth/tokens";
import { type Figure, quantile } from "./figure";
import { startTempApp } from "./temp-app";

export interface FanoutOptions {
  sockets?: number;
  messages?: number;
}

const now = () => performance.timeOrigin + performance.now();

export async function measureFanout(options: FanoutOptions = {}): Promise<Figure[]> {
  const { sockets = 500, messages = 40 } = options;
  const app = await startTempApp();
  const worker = new Worker(new URL("./fanout-clients.ts", import.meta.url).href);
  try {
    const tokens = await agentTokens(app, sockets);
    const phone = "5521988880000";
    const message = (n: number): NormalizedMessage => ({
      id: `FANOUT${n}`,
      chatId: phone,
      isGroup: false,
      fromMe: false,
      at: Date.now(),
      kind: "chat",
      body: `fan-out ${n}`,
      pushName: "Fan-out",
    });
    const sink = app.channels.driverSink;
    await sink.onMessage(app.connectionId, message(0));
    const ticketId = firstTicketId(app);

    // The message is committed when its event is emitted: the time is taken before any listener (the socket
    // hub's included) runs, and again once they all returned (the server's part of the fan-out).
    const committed = new Map<number, number>();
    const serverMs: number[] = [];
    const bus = app.deps.events;
    const emit = bus.emit.bind(bus);
    bus.emit = ((name, payload) => {
      if (name !== "message.created") return emit(name, payload);
      const start = now();
      committed.set((payload as DomainEvents["message.created"]).message.id, start);
      emit(name, payload);
      serverMs.push(now() - start);
    }) as typeof bus.emit;
    const nextReport = reports(worker);
    worker.postMessage({ type: "start", url: `${app.base.replace("http", "ws")}/ws`, tokens, ticketId });
    await nextReport("ready");
    for (let n = 1; n <= messages; n++) {
      const all = nextReport("all");
      await sink.onMessage(app.connectionId, message(n));
      await all;
    }
    worker.postMessage({ type: "done" });
    const { times } = (await nextReport("times")) as { times: Record<string, number[]> };
    const latencies = Object.entries(times).flatMap(([id, at]) =>
      at.map((t) => t - (committed.get(Number(id)) ?? Number.NaN)),
    );
    const p95 = quantile(latencies, 0.95);
    return [
      {
        id: "M2",
        what: `one inbound message → its frame on ${sockets} agent sockets, from commit (p95; p50 ${quantile(latencies, 0.5).toFixed(1)} ms, max ${quantile(latencies, 1).toFixed(1)} ms; server's part p95 ${quantile(serverMs, 0.95).toFixed(1)} ms)`,
        value: p95,
        unit: "ms",
        target: "p95 ≤ 25",
        met: p95 <= 25,
      },
    ];
  } finally {
    worker.terminate();
    await app.close();
  }
}

function firstTicketId(app: Awaited<ReturnType<typeof startTempApp>>): number {
  return (sqliteClient(app.db).query("SELECT id FROM tickets ORDER BY id LIMIT 1").get() as { id: number }).id;
}

/** `count` agents (no queue: they see the tickets without one), each with an access token minted like a login's. */
async function agentTokens(app: Awaited<ReturnType<typeof startTempApp>>, count: number): Promise<string[]> {
  const rows = await app.db
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: `Agent ${i}`,
        email: `agent${i}@bench.example`,
        passwordHash: "unused",
        profile: "user" as const,
      })),
    )
    .returning();
  const tokens = createTokens(app.deps.config);
  return Promise.all(rows.map((u) => tokens.signAccess(u)));
}

/** Resolves with the worker's next report of a given type. */
function reports(worker: Worker) {
  const waiting = new Map<string, (data: unknown) => void>();
  worker.onmessage = (event: MessageEvent<{ type: string }>) => {
    const resolve = waiting.get(event.data.type);
    waiting.delete(event.data.type);
    resolve?.(event.data);
  };
  return (type: string) => new Promise<unknown>((resolve) => waiting.set(type, resolve));
}

if (import.meta.main) {
  const { printFigures } = await import("./ingest");
  const arg = (name: string) =>
    Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1]) || undefined;
  printFigures(await measureFanout({ sockets: arg("sockets"), messages: arg("messages") }));
  process.exit(0);
}
