import type { Database, SQLQueryBindings } from "bun:sqlite";
import { Column, DrizzleQueryError, is, Param, Placeholder, SQL, Subquery, sql } from "drizzle-orm";
import type { Db, Reader } from "./client";
import { dialectOf, ownSqliteClient, pgRootOf, whenAdmitted } from "./client";

/** What a prepared query answers with, on either engine: SQLite's prepared query, asynchronous. */
export interface PreparedQuery {
  get(values?: Record<string, unknown>): Promise<unknown>;
  all(values?: Record<string, unknown>): Promise<unknown>;
  run(values?: Record<string, unknown>): Promise<unknown>;
}

/**
 * A hot query built and compiled once per connection (drizzle's `.prepare()` with `sql.placeholder` values):
 * building a query through drizzle costs more than SQLite takes to run it. Built from a transaction, it runs
 * in that transaction. On PostgreSQL a transaction has a session of its own: the query is built once per pool
 * and each session gets a copy that sends it on the session's connection (building it again in every
 * transaction took half the CPU of an inbound message).
 */
export function prepared<Q extends PreparedQuery>(build: (db: Db) => Q): (db: Reader) => Q {
  const bySession = new WeakMap<object, Q>();
  const byPool = new WeakMap<object, PreparedQuery>();
  return (db) => {
    const key = (db as unknown as { session?: object }).session ?? db;
    const pool = pgRootOf(db);
    if (pool) return onSession(bySession, byPool, pool, key, () => withRowMapper(build(pool as Db))) as Q;
    let query = bySession.get(key);
    if (!query) {
      const built = withRowMapper(build(db as Db));
      query = (dialectOf(db) === "postgres" ? onPostgres(built) : onSqlite(db, built)) as Q;
      bySession.set(key, query);
    }
    return query;
  };
}

/**
 * `prepared` for a statement whose shape depends on a count (a multi-row statement of `count` rows, placeholders
 * named per row by rowPlaceholder): each count's statement is built once, when first asked for. A group commit's
 * batch of messages was built by drizzle again for every batch, about a tenth of the app's CPU per message on
 * PostgreSQL.
 */
export function preparedPerCount<Q extends PreparedQuery>(
  build: (db: Db, count: number) => Q,
): (db: Reader, count: number) => Q {
  const byCount = new Map<number, (db: Reader) => Q>();
  return (db, count) => {
    let query = byCount.get(count);
    if (!query) {
      query = prepared((root) => build(root, count));
      byCount.set(count, query);
    }
    return query(db);
  };
}

/**
 * A LIMIT or OFFSET written into a prepared statement's SQL, not bound: PostgreSQL plans a statement with a bound
 * limit again on each run (its plan without the value expects a tenth of the table), about 0.2-0.4 ms each time.
 * A placeholder (a limit that differs between runs of one shape, as a page number's reach) stays bound.
 */
export const writtenLimit = (limit: number) =>
  typeof limit === "number" ? (sql.raw(String(limit)) as unknown as number) : limit;

const rowNames = new Map<string, string[]>();

/** The placeholder of `name` in row `row` of a preparedPerCount statement, made once (`<name>_<row>`). */
export function rowPlaceholder(name: string, row: number): string {
  let names = rowNames.get(name);
  if (!names) {
    names = [];
    rowNames.set(name, names);
  }
  names[row] ??= `${name}_${row}`;
  return names[row];
}

/** The pool's query (built once) answering on `session`'s connection: a transaction's, or the pool itself. */
function onSession(
  bySession: WeakMap<object, PreparedQuery>,
  byPool: WeakMap<object, PreparedQuery>,
  pool: object,
  session: object,
  build: () => PreparedQuery,
): PreparedQuery {
  let query = bySession.get(session);
  if (query) return query;
  let built = byPool.get(pool);
  if (!built) {
    built = build();
    byPool.set(pool, built);
  }
  const client = (session as { client?: unknown }).client;
  query = onPostgres(Object.create(built, { client: { value: client } }) as PreparedQuery);
  bySession.set(session, query);
  return query;
}

/** SQLite's prepared queries answer at once: they run once no other context's transaction holds the connection. */
function onSqlite(db: object, query: PreparedQuery): PreparedQuery {
  // With a result mapper, drizzle's `get` answers the mapper's list of the one row.
  const mapped = Boolean((query as Mappable).customResultMapper);
  return {
    get: (values) =>
      whenAdmitted(db, () =>
        mapped ? (query.get(values) as unknown as unknown[] | undefined)?.[0] : query.get(values),
      ),
    all: (values) => whenAdmitted(db, () => query.all(values)),
    run: (values) => whenAdmitted(db, () => query.run(values)),
  };
}

/** Drizzle's prepared query as built: its selected fields, and the mapper it uses for rows instead of its own. */
interface Mappable {
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: (rows: unknown[][]) => unknown;
}

/**
 * The query with its rows mapped by a loop over decoders found once: drizzle's own mapping finds each column's
 * decoder again for every row (class checks, a path iterator), a tenth of a ticket page's query CPU. Only for a
 * flat selection: a nested one keeps drizzle's mapping, which also turns a left-joined table's missing row to null.
 */
function withRowMapper<Q>(query: Q): Q {
  const { fields, customResultMapper } = query as Mappable;
  if (!fields || customResultMapper || !fields.every(({ path }) => path.length === 1)) return query;
  const keys = fields.map(({ path }) => path[0]!);
  const decoders = fields.map(({ field }) => decoderOf(field));
  (query as Mappable).customResultMapper = (rows) =>
    rows.map((row) => {
      const mapped: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const raw = row[i];
        mapped[keys[i]!] = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
      }
      return mapped;
    });
  return query;
}

type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** The decoder drizzle's `mapResultRow` picks for a selected field. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field;
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

/** PostgreSQL's prepared queries only `execute`, which answers every row. */
function onPostgres(query: PreparedQuery): PreparedQuery {
  const run =
    sentDirectly(query) ??
    ((values?: Record<string, unknown>) =>
      (query as unknown as { execute(v?: Record<string, unknown>): Promise<unknown[]> }).execute(values));
  return {
    get: async (values) => (await run(values))[0],
    all: run,
    run,
  };
}

/** Drizzle's prepared query on Bun's PostgreSQL client, as built. */
interface BunPrepared {
  client?: {
    unsafe(query: string, params: unknown[]): PromiseLike<unknown[]> & { values(): PromiseLike<unknown[][]> };
  };
  queryString?: string;
  params?: unknown[];
  fields?: unknown[];
  customResultMapper?: (rows: unknown[][]) => unknown[];
}

type Slot = { name: string; encoder?: { mapToDriverValue(value: unknown): unknown } } | { value: unknown };

const slotsOf = new WeakMap<unknown[], Slot[]>();

/**
 * The query sent on its client with its parameters filled from slots found once, instead of through drizzle's
 * `execute` (its parameter filling, class checks per parameter, tracing spans and cache look-up were about a
 * tenth of an inbound message's CPU on PostgreSQL). Same statement, same values, same rows, and a failure is
 * drizzle's `DrizzleQueryError` as before. Undefined for a query whose rows drizzle maps itself (a nested
 * selection), which keeps drizzle's path.
 */
function sentDirectly(query: PreparedQuery): ((values?: Record<string, unknown>) => Promise<unknown[]>) | undefined {
  const built = query as unknown as BunPrepared;
  const { client, queryString, params, fields, customResultMapper } = built;
  if (!client?.unsafe || queryString === undefined || !params || (fields && !customResultMapper)) return undefined;
  let slots = slotsOf.get(params);
  if (!slots) {
    slots = params.map(slotOf);
    slotsOf.set(params, slots);
  }
  const list = slots;
  return async (values = {}) => {
    const filled = fill(list, values);
    try {
      if (!customResultMapper) return await client.unsafe(queryString, filled);
      return customResultMapper(await client.unsafe(queryString, filled).values());
    } catch (error) {
      throw new DrizzleQueryError(queryString, filled, error as Error);
    }
  };
}

function slotOf(param: unknown): Slot {
  if (param instanceof Placeholder) return { name: param.name };
  if (param instanceof Param && param.value instanceof Placeholder)
    return { name: param.value.name, encoder: param.encoder };
  return { value: param };
}

function fill(slots: Slot[], values: Record<string, unknown>): unknown[] {
  const filled = new Array(slots.length);
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if ("value" in slot) {
      filled[i] = slot.value;
      continue;
    }
    if (!(slot.name in values)) throw new Error(`No value for placeholder "${slot.name}" was provided`);
    filled[i] = slot.encoder ? slot.encoder.mapToDriverValue(values[slot.name]) : values[slot.name];
  }
  return filled;
}

/** A query drizzle built with `sql.placeholder` values: its SQL text and parameters, placeholders among them. */
interface BuiltQuery {
  getQuery(): { sql: string; params: unknown[] };
}

type Look = (values: Record<string, unknown>) => Promise<unknown[]>;

/**
 * A query an idle server makes again and again (the job runner's look every second, the maintenance jobs' "any
 * work?" and the passing of their idle turns). On SQLite it runs as the connection's own statement, compiled
 * once from drizzle's query, and reaches no drizzle code: drizzle's functions ran hot while the server started,
 * and under the normal JIT policy (jit-policy.ts) their next call compiled them, the optimising tier included,
 * leaving an idle server about 3 MiB larger. On PostgreSQL it runs as `prepared` does.
 */
export function preparedLook<Q extends PreparedQuery & BuiltQuery>(build: (db: Db) => Q): (db: Db) => Look {
  const pooled = prepared(build);
  const looks = new WeakMap<object, Look>();
  return (db) => {
    let look = looks.get(db);
    if (!look) {
      const client = ownSqliteClient(db);
      look = client ? sqliteLook(db, client, build(db)) : async (values) => (await pooled(db).all(values)) as unknown[];
      looks.set(db, look);
    }
    return look;
  };
}

function sqliteLook(db: Db, client: Database, query: BuiltQuery): Look {
  const { sql, params } = query.getQuery();
  const statement = client.prepare(sql);
  const slots = params.map((param) => (param instanceof Placeholder ? { name: param.name } : { value: param }));
  return (values) =>
    whenAdmitted(db, () =>
      statement.all(...(slots.map((slot) => ("name" in slot ? values[slot.name] : slot.value)) as SQLQueryBindings[])),
    );
}
