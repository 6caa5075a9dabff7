/**
 * P4, a long chat: the first page of a 5,000-message ticket whose contact has two other tickets (300 messages
 * each), over HTTP, p95 of 200 requests; the same run times the first page of a 20-message ticket as the floor.
 * `bun bench/long-chat.ts` runs it on a temp directory (`DATABASE_URL=harness` on the tests' PostgreSQL; `npm run
 * bench:pg` runs it there too).
 */
import { sql } from "drizzle-orm";
import { execute } from "../src/db/client";
import { contacts, messages, onPostgres, tickets } from "../src/db/tables";
import { type Figure, quantile } from "./figure";
import { cpuPerRequest, timedRuns } from "./pg-cpu";
import { startTempApp } from "./temp-app";

const REQUESTS = 200;

export async function measureLongChat(): Promise<Figure[]> {
  const app = await startTempApp({ sandbox: false });
  try {
    const long = await chat(app.db, "5511999990001", [300, 300, 5_000]);
    const short = await chat(app.db, "5511999990002", [20]);
    // Statistics and visibility as autovacuum gathers them soon after such a load (bench/seed.ts does the same):
    // without them PostgreSQL plans the page for a ticket of a dozen messages.
    if (onPostgres) await execute(app.db, sql`vacuum analyze`);
    const firstPage = (ticketId: number) => async () => {
      const res = await fetch(`${app.base}/api/messages/${ticketId}`, {
        headers: { authorization: `Bearer ${app.token}` },
      });
      if (res.status !== 200) throw new Error(`GET /api/messages/${ticketId}: HTTP ${res.status}`);
      await res.arrayBuffer();
    };
    const { p95, cpu } = await p95Of(firstPage(long), app.postgresDataDir);
    const { p95: floor } = await p95Of(firstPage(short));
    return [
      {
        id: "P4",
        what: `first page of a 5,000-message ticket whose contact has 2 other tickets, p95 over HTTP (${REQUESTS} requests; ${cpuPerRequest(cpu, REQUESTS)})`,
        value: Math.round(p95 * 100) / 100,
        unit: "ms",
        target: "p95 ≤ 3",
        met: p95 <= 3,
        baseline: { what: "first page of a 20-message ticket", value: Math.round(floor * 100) / 100 },
      },
    ];
  } finally {
    await app.close();
  }
}

/** A contact with one ticket per count, oldest first, each holding that many messages a second apart. */
async function chat(db: Awaited<ReturnType<typeof startTempApp>>["db"], number: string, counts: number[]) {
  const [contact] = await db
    .insert(contacts)
    .values({ name: `Long ${number}`, number })
    .returning();
  let at = Date.now() - 100_000_000;
  let last = 0;
  for (const [k, n] of counts.entries()) {
    const [ticket] = await db
      .insert(tickets)
      .values({ contactId: contact!.id, status: k === counts.length - 1 ? "open" : "closed" })
      .returning();
    last = ticket!.id;
    for (let i = 0; i < n; i += 500) {
      const rows = Array.from({ length: Math.min(500, n - i) }, (_, j) => ({
        wid: `${number}-${k}-${i + j}`,
        ticketId: ticket!.id,
        contactId: contact!.id,
        body: `message ${i + j}`,
        createdAt: new Date((at += 1000)),
      }));
      await db.insert(messages).values(rows);
    }
  }
  return last;
}

/** The p95 of `REQUESTS` runs of `request` after 20 to warm up, and the CPU those runs took. */
async function p95Of(request: () => Promise<void>, postgresDataDir?: string) {
  for (let i = 0; i < 20; i++) await request();
  const once = async () => {
    const start = performance.now();
    await request();
    return performance.now() - start;
  };
  const { samples, cpu } = await timedRuns(REQUESTS, once, postgresDataDir);
  return { p95: quantile(samples, 0.95), cpu };
}

if (import.meta.main) {
  if (process.env.DATABASE_URL === "harness")
    process.env.DATABASE_URL = (await import("../tests/pg-harness")).pgServer().url;
  const { printFigures } = await import("./ingest");
  printFigures(await measureLongChat());
  process.exit(0);
}
