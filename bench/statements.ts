/**
 * SQL statements, transactions and (PostgreSQL) round trips per unit of work, counted where they reach the
 * engine (tests/statement-trace.ts, tests/pg-wire-trace.ts): an inbound text on an open ticket, the first
 * message of a new contact, an agent's reply, and one recipient of a bulk campaign. The work runs on a test app
 * (tests/units-of-work.ts) with a test clock, so the figures are counts, not timings, and repeat exactly. The
 * sandbox's own statements (the simulated phones) are shown apart. Each engine runs in a process of its own
 * (the engine is chosen when the tables load).
 * `bun bench/statements.ts [--recipients N] [--log]`: both engines (PostgreSQL when initdb is on PATH);
 * `--log` prints each unit's statements.
 */
import { hasPostgres } from "../tests/sql-servers";
import type { StatementCount, WorkCount } from "../tests/statement-trace";
import type { Figure } from "./figure";

type Engine = "sqlite" | "postgres";

interface UnitFigures {
  unit: string;
  count: WorkCount;
}

/** Rounds before counting: the first of a kind compiles statements and fills caches. */
const WARM_UP = 2;
const ROUNDS = 3;
const RECIPIENTS = 20;
/** Customers writing at once in the burst unit. */
const BURST = 32;

/** The units of work on this process's engine, each the mean of its rounds. */
async function measureHere(recipients: number): Promise<UnitFigures[]> {
  const { workbench } = await import("../tests/units-of-work");
  const bench = await workbench();
  try {
    const inbound: WorkCount[] = [];
    const replies: WorkCount[] = [];
    const newContacts: WorkCount[] = [];
    // A conversation: the customer writes, the agent answers.
    for (let i = 0; i < WARM_UP + ROUNDS; i++) {
      const text = await bench.inboundOnOpenTicket();
      const reply = await bench.agentReply();
      const first = await bench.firstMessageOfNewContact();
      if (i < WARM_UP) continue;
      inbound.push(text);
      replies.push(reply);
      newContacts.push(first);
    }
    const burst = await bench.burstOnOpenTickets(BURST);
    const bulk = await bench.bulk(recipients);
    return [
      { unit: "inbound text, open ticket", count: mean(inbound) },
      { unit: `inbound texts, ${BURST} open tickets at once, per text`, count: mean([burst], BURST) },
      { unit: "first message, new contact", count: mean(newContacts) },
      { unit: "agent reply", count: mean(replies) },
      { unit: `bulk, per recipient (of ${recipients})`, count: mean([bulk], recipients) },
    ];
  } finally {
    await bench.close();
  }
}

function mean(counts: WorkCount[], per = counts.length): WorkCount {
  const sum = (side: "app" | "network"): StatementCount => {
    const total = (key: keyof StatementCount) => counts.reduce((n, c) => n + (c[side][key] ?? 0), 0) / per;
    return {
      statements: total("statements"),
      transactions: total("transactions"),
      ...(counts[0]![side].roundTrips === undefined ? {} : { roundTrips: total("roundTrips") }),
    };
  };
  return { app: sum("app"), network: sum("network"), log: counts.at(-1)!.log };
}

/** Runs the units on `engine` in a child process (this script with `--engine`). */
async function measureOn(engine: Engine, recipients: number): Promise<UnitFigures[]> {
  // The test harness chooses its engine from TEST_ENGINE when it loads (tests/test-engine.ts).
  const env: Record<string, string | undefined> = { ...process.env, TEST_ENGINE: engine };
  delete env.DATABASE_URL;
  const child = Bun.spawn(
    [process.execPath, import.meta.path, "--engine", engine, "--recipients", String(recipients)],
    { env, stdout: "pipe", stderr: "inherit" },
  );
  const out = await new Response(child.stdout).text();
  if ((await child.exited) !== 0) throw new Error(`the ${engine} run failed`);
  return JSON.parse(out.trim().split("\n").at(-1)!) as UnitFigures[];
}

/** The figures of `npm run bench` (SQLite) or `npm run bench:pg` (PostgreSQL): the app's share of each unit. */
export async function measureStatements(engine: Engine): Promise<Figure[]> {
  const name = engine === "sqlite" ? "SQLite" : "PostgreSQL";
  return (await measureOn(engine, RECIPIENTS)).flatMap(({ unit, count }) => [
    { id: "SQL", what: `${name}: ${unit}: statements`, value: count.app.statements, unit: "stmt" },
    { id: "SQL", what: `${name}: ${unit}: transactions`, value: count.app.transactions, unit: "tx" },
    ...(count.app.roundTrips === undefined
      ? []
      : [{ id: "SQL", what: `${name}: ${unit}: round trips`, value: count.app.roundTrips, unit: "trips" }]),
  ]);
}

function printCounts(rows: (UnitFigures & { engine: Engine })[]) {
  const cell = (n: number | undefined) => (n === undefined ? "-" : Number.isInteger(n) ? String(n) : n.toFixed(1));
  const line = (c: StatementCount) => [cell(c.statements), cell(c.transactions), cell(c.roundTrips)];
  const table = [
    ["unit of work", "engine", "statements", "transactions", "round trips", "sandbox: stmt", "tx", "trips"],
    ...rows.map((r) => [r.unit, r.engine, ...line(r.count.app), ...line(r.count.network)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table)
    console.log(r.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
  const recipients = Number(option("--recipients") ?? RECIPIENTS);
  const engine = option("--engine") as Engine | undefined;
  if (engine) {
    console.log(JSON.stringify(await measureHere(recipients)));
    process.exit(0);
  }
  const engines: Engine[] = hasPostgres ? ["sqlite", "postgres"] : ["sqlite"];
  const runs: (UnitFigures & { engine: Engine })[][] = [];
  for (const e of engines) runs.push((await measureOn(e, recipients)).map((row) => ({ ...row, engine: e })));
  // Unit by unit, each engine's row under the other.
  const rows = runs[0]!.flatMap((_, unit) => runs.map((run) => run[unit]!));
  printCounts(rows);
  if (args.includes("--log"))
    for (const r of rows) console.log(`\n${r.unit} (${r.engine}), the last round:\n${r.count.log.join("\n")}`);
  if (!hasPostgres) console.log("\n(no initdb/pg_ctl on PATH: SQLite only)");
}
