/**
 * `npm run bench:pg`: P1 (inbound over HTTP, one node and two server processes on one database) and P2 (inbound
 * through the pipeline), each beside the same run's SQLite figure, the app at 10,000 tickets, M3/M4/M9 (ticket
 * lists, search and reports at 100,000 tickets) and the SQL statements per unit of work, with the data in PostgreSQL 15
 * instead of SQLite: the tests' throwaway cluster on a loopback port (fsync off), a database per app
 * (tests/pg-harness.ts). Prints the figures and writes bench/results-pg.json beside the SQLite run's.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Figure } from "./figure";
import type { Rate } from "./ingest";
import type { NodesRate } from "./pg-nodes";
import { postgresCpuMicros, postgresSettled } from "./pg-cpu";
import { printTable, writeResults } from "./report";
import { pgServer } from "../tests/pg-harness";

// Chosen before any table is loaded: every app below stores in PostgreSQL.
const pg = pgServer();
process.env.DATABASE_URL = pg.url;
const { httpIngest, pipelineIngestRate } = await import("./ingest");
const { inboundOnNodes } = await import("./pg-nodes");
const { measureAppAt10k } = await import("./app-at-10k");
const { measureQueriesAtScale } = await import("./queries");
const { measureStatements } = await import("./statements");
const { measureAssignment } = await import("./assignment");
const { measureLongChat } = await import("./long-chat");

const MESSAGES = 20_000;
const SENDERS = 32;
const PHONES = 2_000;
const figures: Figure[] = [];
const dataDir = join(pg.socketDir, "data");
/** Before each measure: what the one before left PostgreSQL doing is done (see postgresSettled). */
const settled = async (next: string) =>
  console.error(`PostgreSQL idle after ${((await postgresSettled(dataDir)) / 1000).toFixed(0)} s, before ${next}`);
try {
  const sqlite = await sqliteInbound();
  await settled("P1");
  const http = await httpIngest(MESSAGES, SENDERS, PHONES);
  figures.push({
    id: "P1",
    what: `PostgreSQL: inbound over HTTP (${SENDERS} senders, ${PHONES} phones, ${MESSAGES} messages; ${cpu(http)} CPU per message, senders included, SQLite ${cpu(sqlite.http)})`,
    value: http.rate,
    unit: "msg/s",
    target: "≥ 1000",
    met: http.rate >= 1_000,
    baseline: { what: "the same on SQLite, same run", value: sqlite.http.rate },
  });
  await settled("P1 on one node");
  const one = await inboundOnNodes(1, MESSAGES, SENDERS, PHONES);
  await settled("P1 on two nodes");
  const two = await inboundOnNodes(2, MESSAGES, SENDERS, PHONES);
  figures.push({
    id: "P1",
    what: `PostgreSQL: inbound over HTTP, two server processes on one database (${cpu(two)} server CPU per message; one process: ${one.rate.toFixed(0)} msg/s at ${cpu(one)}; ${machineShare(two, one.rate)})`,
    value: two.rate,
    unit: "msg/s",
    target: "≥ 1.7× one node",
    met: two.rate >= 1.7 * one.rate,
    baseline: { what: "one server process, same run", value: one.rate },
  });
  await settled("P2");
  const serverCpu = postgresCpuMicros(dataDir);
  const pipeline = await pipelineIngestRate(MESSAGES, SENDERS, PHONES);
  const serverUs = (postgresCpuMicros(dataDir) - serverCpu) / MESSAGES;
  figures.push({
    id: "P2",
    what: `PostgreSQL: inbound through the pipeline, no HTTP (${cpu(pipeline)} CPU per message, and PostgreSQL's ${cpu({ cpuUs: serverUs })}; SQLite ${cpu(sqlite.pipeline)})`,
    value: pipeline.rate,
    unit: "msg/s",
    target: "≥ 2500",
    met: pipeline.rate >= 2_500,
    baseline: { what: "the same on SQLite, same run", value: sqlite.pipeline.rate },
  });
  await settled("the app at 10,000 tickets");
  for (const figure of await measureAppAt10k()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
  for (const figure of await measureQueriesAtScale()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
  figures.push(...(await measureStatements("postgres")));
  for (const figure of await measureAssignment()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
  for (const figure of await measureLongChat()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
} finally {
  printTable(figures);
}
await writeResults("results-pg.json", figures, { mode: "postgres" });
process.exit(0);

/** The same inbound measures on SQLite, in a process of its own (the engine is chosen when the tables load). */
async function sqliteInbound(): Promise<{ http: Rate; pipeline: Rate }> {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.DATABASE_URL;
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "ingest.ts"), "--inbound-json"], {
    env,
    stdout: "pipe",
    stderr: "inherit",
  });
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error("the SQLite inbound run failed");
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

/**
 * How busy the machine was, and the most its cores allow at the run's CPU per message (servers, PostgreSQL and
 * senders together), as a multiple of one node's rate.
 */
function machineShare(run: NodesRate, oneNode: number): string {
  const cores = availableParallelism();
  const ceiling = (cores * 1e6) / run.machineUs;
  return `the machine: ${run.busyCores.toFixed(2)} of ${cores} cores busy, ${run.machineUs.toFixed(0)} µs of its CPU per message, so at most ${ceiling.toFixed(0)} msg/s = ${(ceiling / oneNode).toFixed(2)}× one node on ${cores} cores`;
}

function cpu(rate: { cpuUs: number }): string {
  return `${rate.cpuUs.toFixed(0)} µs`;
}
