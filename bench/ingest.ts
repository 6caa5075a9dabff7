/**
 * M1, inbound ingest: messages from 2,000 distinct phones through the sandbox HTTP API with 32 senders (each
 * answer comes after the message is committed and its events published), the same through the pipeline without
 * HTTP, and a chat-history import. Baselines of the same run: a bare Bun.serve answering a trivial POST with the
 * same concurrency, and raw SQLite single-row commits with the app's pragmas (WAL, synchronous=NORMAL).
 * `bun bench/ingest.ts` runs it on a temp directory.
 */
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NormalizedMessage } from "../src/channels/types";
import { connections } from "../src/db/tables";
import { importHistory } from "../src/modules/inbound/history";
import { eq } from "drizzle-orm";
import type { Figure } from "./figure";
import { runConcurrently, startTempApp } from "./temp-app";

export interface IngestOptions {
  /** Messages sent over HTTP (and through the pipeline). */
  messages?: number;
  senders?: number;
  phones?: number;
  /** Messages of the history import. */
  history?: number;
}

export async function measureIngest(options: IngestOptions = {}): Promise<Figure[]> {
  const { messages = 20_000, senders = 32, phones = 2_000, history = 50_000 } = options;
  const bare = await bareHttpRate(Math.max(messages, 20_000), senders);
  const sqlite = rawSqliteCommitRate(1_000);
  const http = await httpIngestRate(messages, senders, phones);
  const pipeline = await pipelineIngestRate(messages, senders, phones);
  const imported = await historyImportRate(history);
  const figures: Figure[] = [
    {
      id: "M1",
      what: `inbound over HTTP (${senders} senders, ${phones} phones, ${messages} messages)`,
      value: http,
      unit: "msg/s",
      target: "≥ 1000",
      met: http >= 1_000,
      baseline: { what: "bare Bun.serve POST, same concurrency (req/s)", value: bare },
    },
    {
      id: "M1",
      what: `inbound through the pipeline, no HTTP (${pipeline.cpuUs.toFixed(0)} µs CPU per message)`,
      value: pipeline.rate,
      unit: "msg/s",
      target: "≥ 5000",
      met: pipeline.rate >= 5_000,
      baseline: { what: "raw SQLite single-row commits, WAL + synchronous=NORMAL (rows/s)", value: sqlite },
    },
    {
      id: "M1",
      what: `history import (${history} messages; ${imported.cpuUs.toFixed(0)} µs CPU per message)`,
      value: imported.rate,
      unit: "msg/s",
      target: "≥ 10000",
      met: imported.rate >= 10_000,
      baseline: { what: "raw SQLite single-row commits (rows/s)", value: sqlite },
    },
  ];
  return figures;
}

/** Requests per second of a bare Bun.serve answering a trivial POST. */
async function bareHttpRate(total: number, concurrency: number): Promise<number> {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => Response.json({ id: (await req.json()).from }),
  });
  const url = `http://127.0.0.1:${server.port}/`;
  const seconds = await runConcurrently(total, concurrency, async (i) => {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ from: String(i), body: `hello ${i}` }),
    });
    await res.arrayBuffer();
  });
  server.stop(true);
  return total / seconds;
}

/** Single-row commits per second for `ms` milliseconds, each in its own transaction, with the app's pragmas. */
function rawSqliteCommitRate(ms: number): number {
  const dir = mkdtempSync(join(tmpdir(), "zapdesk-sqlite-"));
  const db = new Database(join(dir, "raw.sqlite"), { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const insert = db.prepare("INSERT INTO t (body) VALUES (?)");
  let rows = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    insert.run(`row ${rows}`);
    rows++;
  }
  const rate = rows / ((performance.now() - start) / 1000);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return rate;
}

const phoneOf = (i: number) => `5521${String(700_000_000 + i)}`;

export async function httpIngestRate(total: number, concurrency: number, phones: number): Promise<number> {
  return (await httpIngest(total, concurrency, phones)).rate;
}

/** Inbound over HTTP, with this process's CPU per message (the senders' included: they run here too). */
export async function httpIngest(total: number, concurrency: number, phones: number): Promise<Rate> {
  const app = await startTempApp();
  try {
    const cpu = process.cpuUsage();
    const url = `${app.base}/api/sandbox/${app.connectionId}/inbound`;
    const headers = { authorization: `Bearer ${app.token}`, "content-type": "application/json" };
    const seconds = await runConcurrently(total, concurrency, async (i) => {
      const res = await fetch(url, {
        method: "POST",
        headers,
        body: JSON.stringify({ from: phoneOf(i % phones), name: `Phone ${i % phones}`, body: `hello ${i}` }),
      });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`inbound: HTTP ${res.status}`);
    });
    return { rate: total / seconds, cpuUs: cpuSince(cpu) / total };
  } finally {
    await app.close();
  }
}

export function inboundMessage(i: number, phones: number, at: number): NormalizedMessage {
  const phone = phoneOf(i % phones);
  return {
    id: `BENCH${i}`,
    chatId: phone,
    isGroup: false,
    fromMe: false,
    at,
    kind: "chat",
    body: `hello ${i}`,
    pushName: `Phone ${i % phones}`,
  };
}

/** Messages per second, and the process's CPU time per message (steadier than the rate on a shared machine). */
export interface Rate {
  rate: number;
  cpuUs: number;
}

export function cpuSince(start: NodeJS.CpuUsage) {
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

export async function pipelineIngestRate(total: number, concurrency: number, phones: number): Promise<Rate> {
  const app = await startTempApp();
  try {
    const sink = app.channels.driverSink;
    const cpu = process.cpuUsage();
    const seconds = await runConcurrently(total, concurrency, (i) =>
      sink.onMessage(app.connectionId, inboundMessage(i, phones, Date.now())),
    );
    return { rate: total / seconds, cpuUs: cpuSince(cpu) / total };
  } finally {
    await app.close();
  }
}

/** A history of `total` messages over 500 chats, half sent from the phone, imported in batches of 5,000. */
async function historyImportRate(total: number): Promise<Rate> {
  const app = await startTempApp();
  try {
    await app.db.update(connections).set({ importHistory: true }).where(eq(connections.id, app.connectionId));
    const now = Date.now();
    const list = Array.from({ length: total }, (_, i) => ({
      ...inboundMessage(i, 500, now - (total - i) * 1_000),
      fromMe: i % 2 === 1,
    }));
    const cpu = process.cpuUsage();
    const start = performance.now();
    let stored = 0;
    for (let from = 0; from < total; from += 5_000)
      stored += await importHistory(app.deps, app.connectionId, list.slice(from, from + 5_000));
    const seconds = (performance.now() - start) / 1000;
    if (stored !== total) throw new Error(`history import stored ${stored} of ${total}`);
    return { rate: total / seconds, cpuUs: cpuSince(cpu) / total };
  } finally {
    await app.close();
  }
}

export function printFigures(figures: Figure[]) {
  for (const f of figures) {
    const baseline = f.baseline ? `   (${f.baseline.what}: ${f.baseline.value.toFixed(0)})` : "";
    console.log(
      `${f.id.padEnd(4)} ${f.what.padEnd(64)} ${f.value.toFixed(f.value < 100 ? 1 : 0).padStart(8)} ${f.unit.padEnd(6)} ${f.target ?? ""} ${f.met === undefined ? "" : f.met ? "met" : "NOT met"}${baseline}`,
    );
  }
}

if (import.meta.main && process.argv.includes("--inbound-json")) {
  // The same-run reference of `npm run bench:pg`: inbound over HTTP and through the pipeline on this process's engine.
  const [messages, senders, phones] = [20_000, 32, 2_000];
  const http = await httpIngest(messages, senders, phones);
  const pipeline = await pipelineIngestRate(messages, senders, phones);
  console.log(JSON.stringify({ http, pipeline }));
  process.exit(0);
}

if (import.meta.main) {
  const arg = (name: string) => {
    const value = process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
    return value ? Number(value) : undefined;
  };
  printFigures(await measureIngest({ messages: arg("messages"), history: arg("history") }));
  process.exit(0);
}
