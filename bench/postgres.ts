/**
 * `npm run bench:pg`: M1 (inbound over HTTP and through the pipeline), the app at 10,000 tickets, M3/M4/M9 (ticket
 * lists, search and reports at 100,000 tickets) and the SQL statements per unit of work, with the data in PostgreSQL 15
 * instead of SQLite: the tests' throwaway cluster on a loopback port (fsync off), a database per app
 * (tests/pg-harness.ts). Prints the figures and writes bench/results-pg.json beside the SQLite run's.
 */
import type { Figure } from "./figure";
import { printTable, writeResults } from "./report";
import { pgServer } from "../tests/pg-harness";

// Chosen before any table is loaded: every app below stores in PostgreSQL.
process.env.DATABASE_URL = pgServer().url;
const { httpIngestRate, pipelineIngestRate } = await import("./ingest");
const { measureAppAt10k } = await import("./app-at-10k");
const { measureQueriesAtScale } = await import("./queries");
const { measureStatements } = await import("./statements");
const { measureAssignment } = await import("./assignment");

const MESSAGES = 20_000;
const SENDERS = 32;
const PHONES = 2_000;
const figures: Figure[] = [];
try {
  const http = await httpIngestRate(MESSAGES, SENDERS, PHONES);
  figures.push({
    id: "M1",
    what: `PostgreSQL: inbound over HTTP (${SENDERS} senders, ${PHONES} phones, ${MESSAGES} messages)`,
    value: http,
    unit: "msg/s",
    target: "≥ 1000",
    met: http >= 1_000,
  });
  const pipeline = await pipelineIngestRate(MESSAGES, SENDERS, PHONES);
  figures.push({
    id: "M1",
    what: `PostgreSQL: inbound through the pipeline, no HTTP (${pipeline.cpuUs.toFixed(0)} µs CPU per message)`,
    value: pipeline.rate,
    unit: "msg/s",
    target: "≥ 5000",
    met: pipeline.rate >= 5_000,
  });
  for (const figure of await measureAppAt10k()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
  for (const figure of await measureQueriesAtScale()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
  figures.push(...(await measureStatements("postgres")));
  for (const figure of await measureAssignment()) figures.push({ ...figure, what: `PostgreSQL: ${figure.what}` });
} finally {
  printTable(figures);
}
figures;
await writeResults("results-pg.json", figures, { mode: "postgres" });
process.exit(0);
