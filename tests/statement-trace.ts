import { Database } from "bun:sqlite";
import { type Db, sqliteClient } from "../src/db/client";

/**
 * What a piece of work asked of the database, counted where it reaches the engine: every statement run
 * (transaction control included), the transactions among them (BEGIN) and, on PostgreSQL, the round trips.
 * Statements on the sandbox's own tables (the simulated phones and their pairing) are the simulated WhatsApp
 * network's, not the app's: they are counted apart, with the transactions and round trips made only of them.
 */
export interface StatementCount {
  statements: number;
  transactions: number;
  /** Absent on SQLite, which runs in this process. */
  roundTrips?: number;
}

export interface WorkCount {
  app: StatementCount;
  network: StatementCount;
  /** What ran, in order: each statement's SQL, and `-- round trip` where a client waited for the server. */
  log: string[];
}

type Event = { connection: number } & ({ sql: string } | { roundTrip: true });

const NETWORK_TABLES = /\b(sandbox_messages|wa_auth_creds)\b/i;
const BEGIN = /^\s*(begin|start\s+transaction)\b/i;
const END = /^\s*(commit|rollback|end)\s*;?\s*$/i;
const CONTROL = /^\s*(begin|start\s+transaction|commit|rollback|end|savepoint|release)\b/i;

/** Turns of the event loop without a statement after which work started by what ran before is taken as done. */
const QUIET_TURNS = 20;

/** Collects the statements of one database while recording (`measure`). */
export class StatementTrace {
  private events: Event[] | undefined;
  /** Statements and round trips seen, recorded or not. */
  private seen = 0;
  private readonly withRoundTrips: boolean;
  private readonly awaiting: () => boolean;

  constructor(opts: { roundTrips?: boolean; awaiting?: () => boolean } = {}) {
    this.withRoundTrips = opts.roundTrips ?? false;
    this.awaiting = opts.awaiting ?? (() => false);
  }

  statement(connection: number, sql: string) {
    this.seen++;
    this.events?.push({ connection, sql });
  }

  roundTrip(connection: number) {
    this.seen++;
    this.events?.push({ connection, roundTrip: true });
  }

  /**
   * Resolves once the database is left alone: no answer awaited, and no statement sent for QUIET_TURNS turns
   * of the event loop (work nobody awaits, started by what ran before, has had its turn). Returns whether
   * anything ran meanwhile.
   */
  async idle(): Promise<boolean> {
    const start = this.seen;
    for (let quiet = 0, last = this.seen; quiet < QUIET_TURNS; ) {
      await new Promise((resolve) => setImmediate(resolve));
      if (this.seen !== last || this.awaiting()) {
        last = this.seen;
        quiet = 0;
      } else quiet++;
    }
    return this.seen !== start;
  }

  /** Counts what the database was asked while `work` ran. */
  async measure(work: () => Promise<unknown>): Promise<WorkCount> {
    this.events = [];
    try {
      await work();
      return count(this.events, this.withRoundTrips);
    } finally {
      this.events = undefined;
    }
  }

  /** Runs `work` uncounted: a look at the outcome while the app is quiet (nothing else is counted meanwhile). */
  async aside<T>(work: () => Promise<T>): Promise<T> {
    const events = this.events;
    this.events = undefined;
    try {
      return await work();
    } finally {
      this.events = events;
    }
  }
}

/**
 * Each connection's events in order: a transaction runs from BEGIN to its end on one connection, a round trip
 * holds the statements sent since the connection's previous one.
 */
function count(events: Event[], withRoundTrips: boolean): WorkCount {
  const app = { statements: 0, transactions: 0, ...(withRoundTrips ? { roundTrips: 0 } : {}) };
  const network = { ...app };
  const log = events.map((e) => `[${e.connection}] ${"sql" in e ? e.sql : "-- round trip"}`);
  for (const connection of Map.groupBy(events, (e) => e.connection).values()) {
    const sqls = connection.flatMap((e) => ("sql" in e ? [e.sql] : []));
    const share = networkShare(sqls);
    sqls.forEach((sql, i) => {
      const side = share[i] ? network : app;
      side.statements++;
      if (BEGIN.test(sql)) side.transactions++;
    });
    let next = 0;
    let trip: boolean[] = [];
    for (const event of connection) {
      if ("sql" in event) trip.push(share[next++]!);
      else if (withRoundTrips) {
        (trip.every(Boolean) ? network : app).roundTrips!++;
        trip = [];
      }
    }
  }
  return { app, network, log };
}

/**
 * Which statements are the simulated network's: those on its tables, and the transaction control (BEGIN,
 * savepoints, COMMIT) of a transaction that ran nothing else.
 */
function networkShare(sqls: string[]): boolean[] {
  const share = sqls.map((sql) => NETWORK_TABLES.test(sql));
  sqls.forEach((sql, begin) => {
    if (!BEGIN.test(sql)) return;
    let end = begin + 1;
    while (end < sqls.length && !END.test(sqls[end]!)) end++;
    const span = Array.from({ length: Math.min(end, sqls.length - 1) - begin + 1 }, (_, k) => begin + k);
    const work = span.filter((i) => !CONTROL.test(sqls[i]!));
    const ofNetwork = work.length > 0 && work.every((i) => share[i]);
    for (const i of span) if (CONTROL.test(sqls[i]!)) share[i] = ofNetwork;
  });
  return share;
}

/**
 * SQLite answers in this process: statements are seen as the app hands them to bun:sqlite, whose Database
 * methods this module wraps when it loads (for the whole process: a database nobody traces pays one map lookup
 * per statement).
 */
const traces = new WeakMap<Database, StatementTrace>();
const wrapped = new WeakSet<object>();
const EXECUTIONS = ["get", "all", "iterate", "values", "raw", "run"] as const;

/**
 * The SQLite database's statements from now on. Statements are followed from their compilation, which must come
 * after this module loaded: import it before opening the database.
 */
export function traceSqlite(db: Db): StatementTrace {
  const trace = new StatementTrace();
  traces.set(sqliteClient(db), trace);
  return trace;
}

type Statement = ReturnType<Database["prepare"]>;

/** Each execution of a compiled statement is one statement; an untraced database pays one map lookup. */
function followed(database: Database, sql: string, statement: Statement): Statement {
  if (wrapped.has(statement)) return statement;
  wrapped.add(statement);
  const own = statement as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of EXECUTIONS) {
    const execute = own[name];
    if (!execute) continue;
    own[name] = (...args) => {
      traces.get(database)?.statement(0, sql);
      return execute.apply(statement, args);
    };
  }
  return statement;
}

const { prepare, query, run } = Database.prototype;
Database.prototype.prepare = function (this: Database, sql: string, ...rest: unknown[]) {
  return followed(this, sql, prepare.call(this, sql, ...(rest as [])));
} as typeof prepare;
Database.prototype.query = function (this: Database, sql: string) {
  return followed(this, sql, query.call(this, sql));
} as typeof query;
// `exec` is `run` under another name: both run SQL text directly, without a compiled statement.
Database.prototype.run = Database.prototype.exec = function (this: Database, sql: string, ...params: unknown[]) {
  traces.get(this)?.statement(0, sql);
  return run.call(this, sql, ...(params as []));
} as typeof run;
